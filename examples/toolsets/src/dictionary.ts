import { createUserContent, InMemoryRunner, LlmAgent, stringifyContent, type ToolContext } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { BaseTool, BaseToolset, ToolError, type Tool } from '@adkit/tool';

const WORDS: Record<string, string> = { tool: 'a thing that helps do a job' };

class Define extends BaseTool {
  constructor() {
    super({ name: 'define', description: 'Defines an English word.' });
  }
  declaration() {
    const parametersJsonSchema = { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] };
    return { name: this.name, description: this.declaredDescription(), parametersJsonSchema };
  }
  async run(_ctx: ToolContext, args: Record<string, unknown>) {
    const definition = WORDS[String(args.word)];
    if (!definition) throw new ToolError(`No definition for "${args.word}"; try another word.`);
    return { word: args.word, definition };
  }
}

class Dictionary extends BaseToolset {
  protected async listTools(): Promise<Tool[]> {
    return [new Define()];
  }
}

// Tools are renamed dict_<name>, so they cannot collide with another toolset's.
const dictionary = new Dictionary({ name: 'dictionary', prefix: 'dict', toolFilter: ['define'] });

export async function readmeExample(): Promise<string[]> {
  const model = new ScriptedModel([
    functionCallResponse([{ name: 'dict_define', args: { word: 'tool' } }]),
    textResponse('A tool is a thing that helps do a job.'),
  ]);
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'tutor', model, toolsets: [dictionary] }), autoCreateSession: true });
  const lines: string[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('What is a tool?') }))
    lines.push(`${event.author}: ${stringifyContent(event)}`);
  return lines;
}

import { agentTool } from '@adkit/agent-tool';
import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';

// The summarizer works on its own session: the main agent sees only its answer.
const summarizer = new LlmAgent({
  name: 'summarizer',
  description: 'Summarises a text in one sentence.',
  model: new ScriptedModel([textResponse('Agents call tools; tools can be agents.')]),
});
const main = new LlmAgent({
  name: 'assistant',
  model: new ScriptedModel([
    functionCallResponse([{ name: 'summarizer', args: { request: 'Summarise: agents call tools, and an agent can be a tool.' } }]),
    textResponse('In one line: agents call tools; tools can be agents.'),
  ]),
  tools: [agentTool(summarizer)],
});
const runner = new InMemoryRunner({ agent: main, autoCreateSession: true });
for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('Summarise the notes.') }))
  if (event.errorCode) {
    console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
    process.exitCode = 1;
  } else if (event.partial) console.log(`  (${event.toolProgress?.toolName} working: ${stringifyContent(event.toolProgress!.event!)})`);
  else console.log(`${event.author}: ${stringifyContent(event)}`);

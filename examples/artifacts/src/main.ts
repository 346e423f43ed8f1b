import { InMemorySessionService, LlmAgent, Runner, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { FileSystemArtifactService, loadArtifacts } from '@adkit/artifact-tools';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

const writeReport = functionTool({
  name: 'write_report',
  description: 'Writes a report and saves it as report.md.',
  parameters: Type.Object({ quarter: Type.String() }),
  execute: async ({ quarter }, ctx) => ({ version: await ctx.saveArtifact('report.md', { text: `${quarter}: sales grew 12%.` }) }),
});
// A scripted model (offline); its last answer quotes what load_artifacts put in its request.
const model = new ScriptedModel([
  functionCallResponse([{ name: 'write_report', args: { quarter: 'Q3' } }]),
  textResponse('Saved report.md.'),
  functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: ['report.md'] } }]),
  (request) => textResponse(`It says: ${request.contents.at(-1)!.parts![1]!.text}`),
]);
const runner = new Runner({
  appName: 'reports',
  agent: new LlmAgent({ name: 'writer', model, tools: [writeReport, loadArtifacts] }),
  sessionService: new InMemorySessionService(),
  artifactService: new FileSystemArtifactService({ root: 'artifacts' }), // versions kept in ./artifacts
  autoCreateSession: true,
});
const say = async (text: string) => {
  for await (const event of runner.runAsync({ userId: 'ada', sessionId: 's1', newMessage: createUserContent(text) }))
    if (event.errorCode) {
      console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`);
      process.exitCode = 1;
    } else console.log(stringifyContent(event));
};

await say('Write the Q3 report.');
await say('What does the report say?');

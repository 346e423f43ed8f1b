import { InMemoryRunner, LlmAgent, createUserContent, stringifyContent } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { fileSystemSource, skillToolset } from '@adkit/skill-toolset';

// A folder of skill folders: skills/release-notes/SKILL.md, skills/code-review/SKILL.md, …
const skills = skillToolset({ source: fileSystemSource(new URL('../skills', import.meta.url)) });
// Any Model works here; this script plays one that picks a skill, reads it and its template.
const model = new ScriptedModel([
  functionCallResponse([{ name: 'load_skill', args: { name: 'release-notes' } }]),
  functionCallResponse([{ name: 'load_skill_resource', args: { skill_name: 'release-notes', resource_path: 'references/template.md' } }]),
  textResponse('## 1.2.0\n- Skills load from SKILL.md folders.'),
]);
const agent = new LlmAgent({ name: 'writer', model, toolsets: [skills] });

const runner = new InMemoryRunner({ agent, appName: 'demo', autoCreateSession: true });
for await (const event of runner.runAsync({ userId: 'u1', sessionId: 's1', newMessage: createUserContent('Release notes for 1.2.0?') }))
  if (event.errorCode) {
    console.error(`${event.author}: ${event.errorCode}: ${event.errorMessage}`); // e.g. the model could not be reached
    process.exitCode = 1;
  } else console.log(`${event.author}: ${stringifyContent(event)}`);
// Every request told the model which skills exist:
console.log(model.requests[0]?.config.systemInstruction?.parts?.at(-1)?.text?.split('\n\n').at(-1));

import { afterEach, describe, expect, it } from 'vitest';
import { createUserContent, getFunctionResponses, LlmAgent, Runner, type Event, type SessionService } from '@adkit/flow';
import { functionCallResponse, ScriptedModel, textResponse, type ScriptStep } from '@adkit/flow/testing';
import { SqliteSessionService } from '../src/sqliteSessionService.js';
import { tempDir } from './support/tempDir.js';

const dirs: Array<ReturnType<typeof tempDir>> = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

/** One "process": fresh agents, models and a service on the same file, as after a restart. */
function process(path: string, taskSteps: ScriptStep[], rootSteps: ScriptStep[]) {
  const taskModel = new ScriptedModel(taskSteps);
  const rootModel = new ScriptedModel(rootSteps);
  const collector = new LlmAgent({ name: 'trip_collector', description: 'Collects trip details.', model: taskModel, mode: 'task' });
  const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [collector] });
  const service = new SqliteSessionService({ path });
  const runner = new Runner({ appName: 'app', agent: root, sessionService: service as SessionService });
  const send = async (text: string, stopAfter?: (event: Event) => boolean) => {
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent(text) })) {
      events.push(event);
      if (stopAfter?.(event)) break;
    }
    return events;
  };
  return { taskModel, rootModel, service, send };
}

const texts = (model: ScriptedModel, i: number) => model.requests[i]!.contents.map((c) => c.parts?.map((p) => p.text ?? JSON.stringify(p.functionResponse ?? p.functionCall)).join(''));

describe('task mode on SQLite (#27)', () => {
  it('TM-5, TM-6: a restart in the middle of a task: the user\'s reply reaches the open task in the new process, which finishes and answers the parent', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const path = dir.file('sessions.db');
    const one = process(path, [textResponse('Where to?')], [functionCallResponse([{ name: 'trip_collector', args: { request: 'Plan a trip' }, id: 'c1' }])]);
    await one.service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect((await one.send('I want a trip')).at(-1)!.content!.parts![0]!.text).toBe('Where to?');
    await one.service.close();

    const two = process(
      path,
      [textResponse('For how long?')],
      [],
    );
    expect((await two.send('Tallinn')).at(-1)!.content!.parts![0]!.text).toBe('For how long?');
    expect(texts(two.taskModel, 0)).toEqual(['Plan a trip', 'Where to?', 'Tallinn']);
    await two.service.close();

    const three = process(path, [functionCallResponse([{ name: 'finish_task', args: { result: 'Tallinn, a week' }, id: 'f1' }])], [textResponse('A week in Tallinn, noted.')]);
    const last = await three.send('A week');
    expect(texts(three.taskModel, 0)).toEqual(['Plan a trip', 'Where to?', 'Tallinn', 'For how long?', 'A week']);
    expect(last.at(-1)!.content!.parts![0]!.text).toBe('A week in Tallinn, noted.');
    // The parent's model, in the third process, sees its call and the task's output, nothing of the task.
    expect(texts(three.rootModel, 0)).toEqual([
      'I want a trip',
      JSON.stringify({ name: 'trip_collector', args: { request: 'Plan a trip' }, id: 'c1' }),
      JSON.stringify({ id: 'c1', name: 'trip_collector', response: { result: 'Tallinn, a week' } }),
    ]);
    await three.service.close();
  });

  it('TM-8: a process stopped after finish_task succeeded but before the parent was answered: the next run answers it from the saved success, without running the task again', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const path = dir.file('sessions.db');
    const one = process(
      path,
      [functionCallResponse([{ name: 'finish_task', args: { result: 'done' }, id: 'f1' }])],
      [functionCallResponse([{ name: 'trip_collector', args: { request: 'x' }, id: 'c1' }])],
    );
    await one.service.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    await one.send('go', (event) => getFunctionResponses(event).some((r) => r.name === 'finish_task'));
    await one.service.close();

    const two = process(path, [], [textResponse('All done.')]);
    const events = await two.send('hello?');
    expect(two.taskModel.requests).toHaveLength(0);
    expect(getFunctionResponses(events.find((e) => getFunctionResponses(e).some((r) => r.id === 'c1'))!)[0]!.response).toEqual({ result: 'done' });
    expect(events.at(-1)!.content!.parts![0]!.text).toBe('All done.');
    await two.service.close();
  });
});

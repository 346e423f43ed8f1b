import { createUserContent, InMemoryRunner, type BaseAgent, type Content, type Event } from '@adkit/flow';

/** Collects every event of a run. */
export async function collect(events: AsyncIterable<Event>): Promise<Event[]> {
  const all: Event[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** A runner with one session (`u`/`s`) and a `send` that runs one turn and collects its events. */
export async function session(agent: BaseAgent) {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return {
    runner,
    send: (message: string | Content, signal?: AbortSignal) =>
      collect(
        runner.runAsync({
          userId: 'u',
          sessionId: 's',
          newMessage: typeof message === 'string' ? createUserContent(message) : message,
          signal,
        }),
      ),
    saved: async () => (await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!,
  };
}

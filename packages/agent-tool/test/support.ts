import { InMemoryRunner, createUserContent, type BaseAgent, type Content, type Event, type Runner } from '@adkit/flow';

/** Sends one message through the runner and collects every event, partial ones included. */
export async function send(runner: Runner, message: string | Content, sessionId = 's'): Promise<Event[]> {
  const events: Event[] = [];
  const newMessage = typeof message === 'string' ? createUserContent(message) : message;
  for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage })) events.push(event);
  return events;
}

/** An in-memory runner that creates its session on first use. */
export function runnerFor(agent: BaseAgent): InMemoryRunner {
  return new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
}

/** The complete (non-partial) events. */
export const complete = (events: Event[]) => events.filter((event) => !event.partial);

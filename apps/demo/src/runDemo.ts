import { pendingConfirmations, createConfirmationReply } from '@adkit/confirmation';
import { InMemoryRunner, LlmAgent, createUserContent, type Content } from '@adkit/flow';
import { modelFromEnv } from './modelFromEnv.js';
import { offlineModel } from './offlineModel.js';
import { transcriptLines } from './transcript.js';
import { bookTrip, convertCurrency, getWeather } from './travelTools.js';

/** What the demo user says, in order. */
export const DEMO_MESSAGES = [
  "What's the weather in Lisbon and Tokyo, and how much is 200 USD in EUR?",
  'Book me 3 nights in Lisbon, please.',
];

export interface DemoOptions {
  env: Readonly<Record<string, string | undefined>>;
  write: (line: string) => void;
  /** Decides each confirmation request; the demo's approver says yes. */
  approve?: (toolName: string, args: Record<string, unknown>) => boolean;
}

/**
 * The demo: a travel desk agent with three function tools — two run concurrently, one needs the
 * user's approval — on a real model from the environment, or offline on a scripted one.
 */
export async function runDemo({ env, write, approve = () => true }: DemoOptions): Promise<void> {
  const choice = modelFromEnv(env);
  const agent = new LlmAgent({
    name: 'travel_desk',
    model: choice.model ?? offlineModel(),
    instruction:
      'You are a travel desk. Use the tools for weather, currency and bookings; call independent tools in parallel. Answer in one or two sentences.',
    tools: [getWeather, convertCurrency, bookTrip],
  });
  const runner = new InMemoryRunner({ agent, appName: 'adkit-demo', autoCreateSession: true });
  const session = { userId: 'traveller', sessionId: 'demo' };
  write(`adkit demo — model: ${choice.label}`);

  const turn = async (newMessage: Content) => {
    const started = performance.now();
    for await (const event of runner.runAsync({ ...session, newMessage })) for (const line of transcriptLines(event)) write(line);
    write(`  (${Math.round(performance.now() - started)} ms)`);
  };

  for (const message of DEMO_MESSAGES) {
    write('');
    write(`user: ${message}`);
    await turn(createUserContent(message));
    for (let round = 0; round < 3; round++) {
      const stored = await runner.sessionService.getSession({ appName: runner.appName, ...session });
      const pending = pendingConfirmations(stored?.events ?? []);
      if (pending.length === 0) break;
      for (const request of pending) {
        const { name, args = {} } = request.originalCall;
        const confirmed = approve(name, args);
        write(`approver: ${confirmed ? 'approves' : 'rejects'} ${name}(${JSON.stringify(args)})`);
        await turn(createConfirmationReply(request, { confirmed }));
      }
    }
  }
}

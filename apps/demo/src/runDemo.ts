import { createUserContent } from '@adkit/flow';
import { DemoApp, type Conversation } from './demoApp.js';
import { DEMO_SCRIPT, DEMO_USER, demoDecider, type DemoDecider, type DemoStep } from './demoScript.js';
import type { DemoOutput } from './output.js';
import type { Style } from './style.js';
import { compact } from './transcript.js';

/** Options of the scripted demo. */
export interface DemoOptions {
  env: Readonly<Record<string, string | undefined>>;
  output: DemoOutput;
  style: Style;
  db?: string;
  trace?: boolean;
  /** What the user says (default `DEMO_SCRIPT`). */
  script?: readonly DemoStep[];
  /** Who answers confirmations and long-running calls, and how (default `demoDecider`). */
  decider?: DemoDecider;
}

/**
 * `npm run demo`: runs the script against the assistant and prints the transcript — who speaks,
 * each call and result, approvals and the answers given, progress — then closes everything.
 */
export async function runDemo(options: DemoOptions): Promise<void> {
  const { output, style, script = DEMO_SCRIPT, decider = demoDecider } = options;
  const app = await DemoApp.open(options);
  try {
    for (const line of app.header()) output.line(line);
    let session: string | undefined;
    for (const step of script) {
      const conversation: Conversation = { userId: DEMO_USER, sessionId: step.session };
      if (step.session !== session) {
        session = step.session;
        output.line('');
        output.line(style.heading(`── session "${session}" of user "${DEMO_USER}" ──`));
      }
      output.line('');
      output.line(`${style.user('user')}: ${step.say}`);
      await app.turn(conversation, createUserContent(step.say));
      await answerWhatWaits(app, conversation, decider, output, style);
    }
    output.line('');
    output.line(style.dim(app.choice.model ? `(model: ${app.choice.label})` : '(offline: every answer above came from the demo brain, a scripted model; the tools, servers and stores were real)'));
  } finally {
    await app.close();
  }
}

/**
 * Answers each confirmation, consent and long-running call the turn left waiting, until none is
 * left. A consent is given as the user would give it: the link is printed, the user signs in on
 * the provider's page and consents (its forms submitted over HTTP), and the URL the provider sends
 * the browser back to goes to the flow as the credential reply (its code is never printed).
 */
async function answerWhatWaits(app: DemoApp, conversation: Conversation, decider: DemoDecider, output: DemoOutput, style: Style): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const { confirmations, longRunning, credentials } = await app.pending(conversation);
    if (confirmations.length === 0 && longRunning.length === 0 && credentials.length === 0) return;
    for (const request of credentials) {
      output.line(style.waiting(`  🔑 sign in to let ${request.originalCall.name} reach your account: ${request.authUri ?? '(no link)'}`));
      const authResponseUri = await app.consentInBrowser(conversation, request);
      output.line(`${style.user(conversation.userId)}: signs in on the provider's page and consents; the browser comes back to ${new URL(authResponseUri).origin}${new URL(authResponseUri).pathname}`);
      await app.consent(conversation, request, authResponseUri);
    }
    for (const request of confirmations) {
      const decision = decider.confirmation(request);
      const { name, args = {} } = request.originalCall;
      const payload = decision.payload === undefined ? '' : ` with ${compact(decision.payload)}`;
      output.line(`${style.user('approver')}: ${decision.confirmed ? 'approves' : 'rejects'} ${name}(${compact(args)})${payload}`);
      await app.confirm(conversation, request, decision);
    }
    for (const pending of longRunning) {
      const response = decider.longRunning(pending);
      output.line(`${style.user('manager')}: answers ${pending.call.name}(${compact(pending.call.args ?? {})}) with ${compact(response)}`);
      await app.answer(conversation, pending, response);
    }
  }
}

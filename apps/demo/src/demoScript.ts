import type { ConfirmationDecision, PendingConfirmation } from '@adkit/confirmation';
import type { PendingLongRunningCall } from './pendingWork.js';

/** One thing the demo user says, in one of their sessions. */
export interface DemoStep {
  session: string;
  say: string;
}

/** The demo user; memory and `user:` artifacts follow them across sessions. */
export const DEMO_USER = 'ann';

/** What the scripted demo says, in order: each feature once, across two sessions. */
export const DEMO_SCRIPT: readonly DemoStep[] = [
  { session: 'monday', say: "What's the weather in Lisbon and Tokyo, and how much is 200 USD in EUR?" },
  { session: 'monday', say: 'Book me 3 nights in Lisbon, please.' },
  { session: 'monday', say: 'Please reimburse $45 for a taxi.' },
  { session: 'monday', say: 'Please reimburse $480 for the client dinner.' },
  { session: 'monday', say: "I'd like 5 days of vacation in May." },
  {
    session: 'monday',
    say: 'Summarise: adkit is the tool system of an agent development kit, in TypeScript. Agents call tools, and an agent can be a tool. Every part is a small package.',
  },
  { session: 'monday', say: "What's the 3-day forecast for Oslo?" },
  { session: 'monday', say: 'List the shared folder and read welcome.txt.' },
  { session: 'monday', say: 'Which cats can I adopt?' },
  { session: 'monday', say: 'Adopt Kitty, please.' },
  { session: 'monday', say: 'Show my calendar for today.' },
  { session: 'monday', say: 'Help me pack for Oslo.' },
  { session: 'monday', say: 'Plan 3 days in Lisbon for me.' },
  { session: 'monday', say: 'Save a note: buy a Lisboa card at the airport.' },
  { session: 'monday', say: 'Remember that my favourite city is Lisbon.' },
  { session: 'tuesday', say: "What's my favourite city?" },
  { session: 'tuesday', say: "What's in my notes?" },
];

/** How the scripted demo answers what waits: who answers, and what. */
export interface DemoDecider {
  confirmation(request: PendingConfirmation): ConfirmationDecision;
  longRunning(pending: PendingLongRunningCall): Record<string, unknown>;
}

/**
 * The scripted answers: the user approves the booking and the adoption; the manager approves 3 of the 5 vacation
 * days (the confirmation's payload) and the reimbursement (the long-running call's real answer).
 */
export const demoDecider: DemoDecider = {
  confirmation: (request) =>
    request.originalCall.name === 'request_vacation_days' ? { confirmed: true, payload: { days_approved: 3 } } : { confirmed: true },
  longRunning: ({ interim }) => ({ status: 'approved', ...(interim?.ticketId ? { ticketId: interim.ticketId } : {}) }),
};

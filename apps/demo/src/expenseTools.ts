import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

const claim = Type.Object({
  purpose: Type.String({ description: 'What the money was spent on, e.g. "client dinner".' }),
  amount: Type.Number({ minimum: 0, description: 'The amount in US dollars.' }),
});

/**
 * ADK's `ask_for_approval`: a long-running tool. It files a ticket with the manager and answers
 * "pending" at once; the run pauses, and the manager's decision arrives later as this call's
 * function response (`{status: "approved" | "rejected", ticketId}`).
 */
export const askForApproval = functionTool({
  name: 'ask_for_approval',
  description: 'Asks the manager to approve a reimbursement over $100. The manager answers later.',
  parameters: claim,
  isLongRunning: true,
  execute: ({ purpose, amount }, ctx) => {
    const tickets = (ctx.state.get<number>('user:tickets') ?? 0) + 1;
    ctx.state.set('user:tickets', tickets);
    return { status: 'pending', purpose, amount, ticketId: `reimbursement-ticket-${String(tickets).padStart(3, '0')}` };
  },
});

/** ADK's `reimburse`: pays the amount back (here: records it in the user's state). */
export const reimburse = functionTool({
  name: 'reimburse',
  description: 'Reimburses an amount to the employee. Over $100 only after the manager approved it.',
  parameters: claim,
  execute: ({ purpose, amount }, ctx) => {
    const paid = ctx.state.get<number>('user:reimbursed') ?? 0;
    ctx.state.set('user:reimbursed', paid + amount);
    return { status: 'ok', purpose, amount };
  },
});

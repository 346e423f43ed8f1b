import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

/**
 * ADK's vacation request: the tool asks the manager itself (`ctx.requestConfirmation`) with a
 * payload for the answer, `{days_approved}`; on the approval it grants what the manager filled in.
 */
export const requestVacationDays = functionTool({
  name: 'request_vacation_days',
  description: 'Asks the manager to approve vacation days; the manager may approve fewer.',
  parameters: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 30 }) }),
  execute: ({ days }, ctx) => {
    const answer = ctx.toolConfirmation;
    if (!answer) {
      ctx.requestConfirmation({ hint: `Approve ${days} vacation days? Fill in days_approved.`, payload: { days_approved: days } });
      return { status: 'Waiting for the manager.' };
    }
    if (!answer.confirmed) return { status: 'Rejected by the manager.', days_requested: days };
    const approved = Number((answer.payload as { days_approved?: unknown } | undefined)?.days_approved);
    const granted = Number.isFinite(approved) ? Math.max(0, Math.min(Math.floor(approved), days)) : days;
    return { status: 'Approved.', days_requested: days, days_approved: granted };
  },
});

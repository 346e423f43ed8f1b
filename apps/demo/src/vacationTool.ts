import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

/**
 * ADK's vacation request: the manager is asked with a draft answer, `{days_approved}`, and the tool
 * grants what the manager filled in. The payload schema refuses an approval such as
 * `{"days_approved": "three"}` before the tool runs, so a garbled answer never grants anything.
 */
export const requestVacationDays = functionTool({
  name: 'request_vacation_days',
  description: 'Asks the manager to approve vacation days; the manager may approve fewer.',
  parameters: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 30 }) }),
  requireConfirmation: {
    hint: ({ days }) => `Approve ${days} vacation days? Fill in days_approved.`,
    payload: ({ days }) => ({ days_approved: days }),
    payloadSchema: Type.Object({ days_approved: Type.Integer({ minimum: 0, maximum: 30 }) }),
  },
  execute: ({ days }, ctx) => {
    const answer = ctx.toolConfirmation!;
    const { days_approved } = answer.payload as { days_approved: number };
    return { status: 'Approved.', days_requested: days, days_approved: Math.min(days_approved, days) };
  },
});

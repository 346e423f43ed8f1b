// The public API of @adkit/confirmation. Every line here is an API decision.
export type { ToolConfirmation } from '@adkit/flow';
export { REQUEST_CONFIRMATION, originalCallFrom } from './protocol.js';
export type { PendingConfirmation, PendingConfirmationsOptions, PendingConfirmationsSession } from './pendingConfirmations.js';
export { pendingConfirmations } from './pendingConfirmations.js';
export type { ConfirmationDecision } from './createConfirmationReply.js';
export { createConfirmationReply } from './createConfirmationReply.js';
export type { WithConfirmationOptions, ConfirmationPredicate } from './withConfirmation.js';
export { withConfirmation } from './withConfirmation.js';

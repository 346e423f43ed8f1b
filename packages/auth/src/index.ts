// The public API of @adkit/auth. Every line here is an API decision.
export type { CredentialManagerOptions } from './credentialManager.js';
export { credentialManager } from './credentialManager.js';
export type { CredentialService, CredentialRecord, CredentialRecordKey } from './credentialService.js';
export { InMemoryCredentialService } from './inMemoryCredentialService.js';
export type { SessionCredentialServiceOptions } from './sessionCredentialService.js';
export { SessionCredentialService } from './sessionCredentialService.js';
export type { PendingCredentialRequest } from './pendingCredentialRequests.js';
export { pendingCredentialRequests } from './pendingCredentialRequests.js';
export { createCredentialReply } from './createCredentialReply.js';
export { CredentialError } from './errors.js';

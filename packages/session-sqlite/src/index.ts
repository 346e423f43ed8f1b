// The public API of @adkit/session-sqlite. Every line here is an API decision.
export type { SqliteSessionServiceOptions } from './sqliteSessionService.js';
export { SqliteSessionService } from './sqliteSessionService.js';

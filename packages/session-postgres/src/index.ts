// The public API of @adkit/session-postgres. Every line here is an API decision.
export type { PostgresSessionServiceOptions } from './postgresSessionService.js';
export { PostgresSessionService } from './postgresSessionService.js';

import { AdkitError, ConfigError, isAdkitError, type AuthConfig, type ToolContext } from '@adkit/flow';

/** What a tool with `auth` answers while the user has not consented yet (AU-7). */
export const PENDING_AUTHORIZATION = Object.freeze({ status: 'Pending User Authorization.' });

/**
 * Thrown by an `execute` of a tool with `auth` when the resource refused the credential (an HTTP
 * 401): the tool refreshes the credential once and runs `execute` again; when that fails too, or
 * there is nothing to refresh with, it asks the user to consent again.
 */
export class CredentialRejectedError extends AdkitError {
  constructor(message = 'The resource refused the credential.', options?: { cause?: unknown }) {
    super('CREDENTIAL_REJECTED', message, options);
    this.name = 'CredentialRejectedError';
  }
}

/** How a call of a tool with `auth` ended: the handler's value, or a pause for consent. */
export type AuthorizedOutcome = { value: unknown } | { pending: Record<string, unknown> };

/**
 * The credential step of a function tool with `auth` (AU-7): finds the credential (`ctx.credential`
 * for `execute`), or asks for one and answers pending; on a `CredentialRejectedError` refreshes
 * once and runs again, then asks. Undefined without `auth`.
 */
export function authStep(label: string, auth: AuthConfig | undefined): ((ctx: ToolContext, execute: () => unknown) => Promise<AuthorizedOutcome>) | undefined {
  if (auth === undefined) return undefined;
  if (!auth || typeof auth !== 'object' || !auth.authScheme || typeof auth.authScheme.type !== 'string')
    throw new ConfigError(`${label}: auth must be an AuthConfig such as {authScheme: {type: 'oauth2', flows: {...}}, rawAuthCredential: {...}}.`);
  return async (ctx, execute) => {
    const ask = (): AuthorizedOutcome => {
      ctx.requestCredential(auth);
      return { pending: { ...PENDING_AUTHORIZATION } };
    };
    if (!(await ctx.getCredential(auth))) return ask();
    try {
      return { value: await execute() };
    } catch (error) {
      if (!isRejected(error)) throw error;
    }
    if (!(await ctx.getCredential(auth, { forceRefresh: true }))) return ask();
    try {
      return { value: await execute() };
    } catch (error) {
      if (!isRejected(error)) throw error;
      return ask();
    }
  };
}

function isRejected(error: unknown): boolean {
  return isAdkitError(error) && error.code === 'CREDENTIAL_REJECTED';
}

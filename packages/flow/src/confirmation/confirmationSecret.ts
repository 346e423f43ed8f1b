import type { ToolContext } from '../context/toolContext.js';

// The runner's confirmation secret behind each tool context, kept off the context object itself
// so no tool can read it (it keys the digests that prove the flow wrote a request).
const secrets = new WeakMap<object, string>();

/** Records the runner's secret for a tool context (the flow does this when it builds one). */
export function bindConfirmationSecret(ctx: object, secret: string | undefined): void {
  if (secret !== undefined) secrets.set(ctx, secret);
}

/**
 * The runner's `confirmationSecret` behind a tool context, for the flow's own use: a sub-agent's
 * runner keys and checks its confirmation requests with the parent's secret, at every level.
 */
export function confirmationSecretOf(ctx: ToolContext): string | undefined {
  return secrets.get(ctx);
}

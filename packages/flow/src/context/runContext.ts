/**
 * What the caller of `runner.runAsync({..., context})` hands to every tool, toolset and callback
 * of that run, and what is never saved: API clients, tokens, per-user MCP headers. It never enters
 * events, state or instruction templates. Type it for your app by augmenting this interface:
 *
 * ```ts
 * declare module '@adkit/flow' {
 *   interface RunContext { githubToken?: string }
 * }
 * ```
 */
// An interface (not a type alias) so that apps can augment it; empty until they do.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RunContext {}

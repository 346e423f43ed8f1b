import { LazySchema, type AuthConfig, type FunctionDeclaration, type ReadonlyContext, type ToolContext } from '@adkit/flow';
import { PENDING_AUTHORIZATION } from '@adkit/function-tool';
import { BaseTool, ToolError, confirmationGate, invalidArgumentsError } from '@adkit/tool';
import type { AddressPolicy } from './addressPolicy.js';
import type { CredentialProvider } from './auth.js';
import { ArgumentProblem, buildRequest, type RequestExtras } from './buildRequest.js';
import type { ArgumentPlan } from './operationSchema.js';
import { MUTATING_METHODS, type OperationEntry, type OperationInfo } from './operations.js';
import { sendRequest, TransportProblem, type ApiResponse } from './sendRequest.js';
import type { JsonNode } from './toJsonSchema.js';

/**
 * Whether a call needs the user's approval first (HC-2): a flag, or a function of the tool's name,
 * the checked arguments and the context (the shape every toolset's `requireConfirmation` has),
 * with the operation (method, path, tags) fourth.
 */
export type OpenApiRequireConfirmation =
  | boolean
  | ((toolName: string, args: Record<string, unknown>, ctx: ToolContext, operation: OperationInfo) => boolean | Promise<boolean>);

/** App headers for every request: fixed, or computed per run (e.g. from `ctx.context`). */
export type HeaderSource = Record<string, string> | ((ctx: ReadonlyContext) => Record<string, string> | Promise<Record<string, string>>);

/** What all tools of one toolset share. */
export interface OpenApiToolShared {
  readonly credentials: CredentialProvider;
  readonly policy: AddressPolicy;
  readonly requireConfirmation: OpenApiRequireConfirmation | undefined;
  readonly headers: HeaderSource | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRedirects: number;
}

/** What one tool is built from. */
export interface OpenApiToolInit {
  readonly name: string;
  readonly description: string;
  readonly operation: OperationEntry;
  readonly baseUrl: URL;
  readonly parameters: JsonNode;
  readonly plan: ArgumentPlan;
}

/**
 * One operation of an OpenAPI description as a tool. A call checks the arguments against the
 * declared schema (lossless conversion, then an error listing each problem), asks for
 * confirmation when required (mutating methods by default, HC-2), applies the app's credentials
 * and headers, sends the request with `fetch` under the run's signal and the tool's time limit,
 * and answers `{status, headers, body}`; a 4xx/5xx answer is an error naming the status, what the
 * API said and what to do.
 */
export class OpenApiTool extends BaseTool {
  /** The operation this tool calls. */
  readonly operation: OperationInfo;
  private readonly declared: FunctionDeclaration;
  private readonly input: LazySchema;
  private readonly entry: OperationEntry;
  private readonly baseUrl: URL;
  private readonly plan: ArgumentPlan;

  constructor(
    init: OpenApiToolInit,
    private readonly shared: OpenApiToolShared,
  ) {
    super({ name: init.name, description: init.description });
    const { parameters: _p, requestBody: _b, security: _s, servers: _v, ...info } = init.operation;
    this.operation = Object.freeze(info);
    this.entry = init.operation;
    this.baseUrl = init.baseUrl;
    this.plan = init.plan;
    this.input = new LazySchema(init.parameters);
    this.declared = Object.freeze({ name: init.name, description: init.description, parametersJsonSchema: init.parameters });
  }

  declaration(): FunctionDeclaration {
    return this.declared;
  }

  async run(ctx: ToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const input = this.input.compiled ?? (await this.input.compile());
    let values: unknown = args ?? {};
    if (!input.check(values)) {
      values = input.coerce(values);
      if (!input.check(values)) throw invalidArgumentsError(this.name, input.problems(values), this.input.schema);
    }
    const checked = values as Record<string, unknown>;
    const confirm = this.shared.requireConfirmation ?? MUTATING_METHODS.has(this.operation.method);
    // The approval (HC-2) comes first; a call approved and then paused for the user's consent keeps
    // its approval in its resume state (the flow's, bound to this call), so it is asked once.
    const approved = ctx.toolConfirmation?.confirmed === true || isApprovedResume(ctx.resumeState);
    if (!approved && (confirm !== false || ctx.toolConfirmation !== undefined))
      await confirmationGate(ctx, this.name, typeof confirm === 'function' ? () => confirm(this.name, checked, ctx, this.operation) : confirm);
    const applied = await this.credentialsFor(ctx);
    if ('consent' in applied) {
      if (approved) ctx.setResumeState({ [APPROVED]: true });
      return this.askConsent(ctx, applied.consent);
    }

    let { response, label } = await this.send(ctx, checked, applied.extras);
    // The API refused the OAuth token: refresh it once (AU-7), then ask the user again.
    if (response.status === 401 && applied.oauth) {
      const again = await this.credentialsFor(ctx, { forceRefresh: true });
      if ('consent' in again) {
        if (approved) ctx.setResumeState({ [APPROVED]: true });
        return this.askConsent(ctx, again.consent);
      }
      ({ response, label } = await this.send(ctx, checked, again.extras));
      if (response.status === 401) {
        if (approved) ctx.setResumeState({ [APPROVED]: true });
        return this.askConsent(ctx, applied.oauth);
      }
    }
    if (response.status >= 400) throw httpError(this.name, label, response);
    return { ...response };
  }

  /** Asks the user to authorize (the run pauses; the call runs again after consent) and answers pending. */
  private askConsent(ctx: ToolContext, config: AuthConfig): Record<string, unknown> {
    ctx.requestCredential(config);
    return { ...PENDING_AUTHORIZATION };
  }

  /** The call's credentials (the app's headers merged in), or the consent they need first. */
  private async credentialsFor(
    ctx: ToolContext,
    options?: { forceRefresh?: boolean },
  ): Promise<{ extras: RequestExtras; oauth?: AuthConfig } | { consent: AuthConfig }> {
    const applied = await this.shared.credentials.apply(this.entry, ctx, options);
    if ('consent' in applied) return applied;
    if ('missing' in applied)
      throw new ToolError(`Tool "${this.name}" cannot call the API: ${applied.missing}. The app must supply it; do not retry.`, {
        code: 'OPENAPI_AUTH_MISSING',
        toolName: this.name,
      });
    const app = typeof this.shared.headers === 'function' ? await this.shared.headers(ctx) : this.shared.headers;
    if (app) applied.extras.headers = { ...app, ...applied.extras.headers };
    return applied;
  }

  /** Builds and sends one request; what the API answered, whatever the status. */
  private async send(ctx: ToolContext, checked: Record<string, unknown>, extras: RequestExtras): Promise<{ response: ApiResponse; label: string }> {
    let request;
    try {
      request = buildRequest(this.baseUrl, this.operation.method, this.operation.path, this.plan, checked, extras);
    } catch (error) {
      if (error instanceof ArgumentProblem)
        throw new ToolError(`Invalid arguments for tool "${this.name}": ${error.message}.`, { code: 'INVALID_ARGUMENTS', toolName: this.name });
      throw error;
    }

    const timeout = AbortSignal.timeout(this.shared.timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    try {
      const response = await sendRequest(request, {
        policy: this.shared.policy,
        maxResponseBytes: this.shared.maxResponseBytes,
        maxRedirects: this.shared.maxRedirects,
        signal,
      });
      return { response, label: request.label };
    } catch (error) {
      const why =
        error instanceof TransportProblem
          ? error.message
          : timeout.aborted
            ? `no answer within ${this.shared.timeoutMs} ms (timed out)`
            : ctx.signal.aborted
              ? 'the run was cancelled'
              : `the request failed (${networkReason(error)})`;
      throw new ToolError(`Tool "${this.name}" could not call ${request.label}: ${why}.`, {
        code: 'OPENAPI_REQUEST_FAILED',
        toolName: this.name,
        cause: error,
      });
    }
  }
}

/** The resume-state key of a call the user approved before it paused for consent. */
const APPROVED = 'openapiApproved';

function isApprovedResume(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[APPROVED] === true;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** What the model should do about a status. */
function advice(status: number): string {
  if (status === 400 || status === 422) return 'Correct the arguments and call the tool again.';
  if (status === 401 || status === 403) return 'The credentials do not allow this; do not retry, tell the user.';
  if (status === 404) return 'Check the identifiers in the arguments.';
  if (status === 409) return 'The resource is in a conflicting state; read it again before retrying.';
  if (status === 429) return 'The API is rate limited; wait before retrying.';
  if (status >= 500) return 'The API failed; retry later or tell the user.';
  return 'Check the arguments.';
}

function httpError(toolName: string, label: string, response: ApiResponse): ToolError {
  let said = '';
  if (response.body !== null && response.body !== undefined) {
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    said = `: ${text.length > 1_000 ? `${text.slice(0, 1_000)}…` : text}`;
  }
  const error = new ToolError(`${label} answered HTTP ${response.status}${said}. ${advice(response.status)}`, {
    code: 'OPENAPI_HTTP_ERROR',
    toolName,
  });
  Object.defineProperty(error, 'response', { value: response, enumerable: false });
  return error;
}

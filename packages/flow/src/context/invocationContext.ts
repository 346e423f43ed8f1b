import type { ArtifactService } from '../services/artifactService.js';
import type { BaseAgent } from '../agents/baseAgent.js';
import type { Content } from '../content/content.js';
import type { CredentialManager } from '../auth/credentialManager.js';
import type { AuthConfig } from '../auth/authTypes.js';
import type { MemoryService } from '../services/memoryService.js';
import type { Plugin } from '../runner/plugin.js';
import { DEFAULT_MAX_LLM_CALLS, type RunConfig } from '../runner/runConfig.js';
import type { Session, SessionService } from '../sessions/session.js';
import { stderrLogger, type Logger } from './logger.js';
import type { RunContext } from './runContext.js';
import { cancellationOfSignal, isRunCancellation, type RunCancellation } from './runCancellation.js';

export interface InvocationContextInit {
  invocationId: string;
  agent: BaseAgent;
  session: Session;
  sessionService: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  userContent?: Content;
  runConfig?: RunConfig;
  /** Cancels the run: an AbortSignal, or the runner's `RunCancellation` (its signal made on first read). */
  signal: AbortSignal | RunCancellation;
  branch?: string;
  plugins?: readonly Plugin[];
  /** The caller's per-run context; never saved. */
  context?: RunContext;
  logger?: Logger;
  /** Keys confirmation digests (HMAC) so that no one without it can forge one. */
  confirmationSecret?: string;
  /** Runs the credential protocol (AU-5, AU-6): `credentialManager()` of `@adkit/auth`. */
  credentials?: CredentialManager;
}

// By the invocation's shared state, so every agent of the run sees it and nothing enumerates it.
const replies = new WeakMap<object, Content>();

/**
 * Everything one invocation (one `runAsync`) shares: the session, the services, the signal and
 * the plugins. Agents get it; tools get a narrower `ToolContext`.
 */
export class InvocationContext {
  readonly invocationId: string;
  readonly agent: BaseAgent;
  readonly session: Session;
  readonly sessionService: SessionService;
  readonly artifactService?: ArtifactService;
  readonly memoryService?: MemoryService;
  readonly userContent?: Content;
  readonly runConfig: RunConfig;
  /** How the run is cancelled; the flow checks `cancellation.aborted`, so the run's signal is made only when read (#24). */
  readonly cancellation: RunCancellation;
  readonly branch?: string;
  readonly plugins: readonly Plugin[];
  readonly context: RunContext;
  readonly logger: Logger;
  readonly confirmationSecret?: string;
  readonly credentials?: CredentialManager;
  /**
   * Call id → the full config (secrets included) a tool of this invocation asked with; never saved:
   * the flow hands it to the credential manager when it makes the consent request.
   */
  get authConfigsAsked(): Map<string, AuthConfig> {
    // Made when a tool first asks: most invocations never do, and each agent's context is one more (#24).
    return (this.#authConfigsAsked ??= new Map());
  }

  #authConfigsAsked?: Map<string, AuthConfig>;
  private readonly shared: { endInvocation: boolean; llmCalls: number };

  constructor(init: InvocationContextInit, shared = { endInvocation: false, llmCalls: 0 }) {
    this.invocationId = init.invocationId;
    this.agent = init.agent;
    this.session = init.session;
    this.sessionService = init.sessionService;
    this.artifactService = init.artifactService;
    this.memoryService = init.memoryService;
    this.userContent = init.userContent;
    this.runConfig = init.runConfig ?? {};
    this.cancellation = isRunCancellation(init.signal) ? init.signal : cancellationOfSignal(init.signal);
    this.branch = init.branch;
    this.plugins = init.plugins ?? [];
    this.context = init.context ?? {};
    this.logger = init.logger ?? stderrLogger;
    this.confirmationSecret = init.confirmationSecret;
    this.credentials = init.credentials;
    this.shared = shared;
  }

  /** Aborted when the run is cancelled. */
  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  /** True once the run is cancelled: what `signal.aborted` says, without making the signal. */
  get aborted(): boolean {
    return this.cancellation.aborted;
  }

  get agentName(): string {
    return this.agent.name;
  }

  get appName(): string {
    return this.session.appName;
  }

  get userId(): string {
    return this.session.userId;
  }

  /** Set to stop the invocation after the current event. */
  get endInvocation(): boolean {
    return this.shared.endInvocation;
  }

  set endInvocation(value: boolean) {
    this.shared.endInvocation = value;
  }

  /** The same invocation, run by another agent. */
  withAgent(agent: BaseAgent, branch = this.branch): InvocationContext {
    // Field by field: spreading the instance cost microseconds a turn (#24).
    return new InvocationContext(
      {
        invocationId: this.invocationId,
        agent,
        session: this.session,
        sessionService: this.sessionService,
        artifactService: this.artifactService,
        memoryService: this.memoryService,
        userContent: this.userContent,
        runConfig: this.runConfig,
        signal: this.cancellation,
        branch,
        plugins: this.plugins,
        context: this.context,
        logger: this.logger,
        confirmationSecret: this.confirmationSecret,
        credentials: this.credentials,
      },
      this.shared,
    );
  }

  /**
   * The run's own message with its credential replies as the client sent them (response URIs with
   * codes); `userContent` and the saved event have them removed. Only the credential resume reads it.
   */
  get credentialReplies(): Content | undefined {
    return replies.get(this.shared);
  }

  /** Keeps the unredacted message for the credential resume (the runner does, once per run). */
  keepCredentialReplies(content: Content): void {
    replies.set(this.shared, content);
  }

  /** Counts a model call; false once the invocation has used up `maxLlmCalls`. */
  countLlmCall(): boolean {
    this.shared.llmCalls += 1;
    return this.shared.llmCalls <= (this.runConfig.maxLlmCalls ?? DEFAULT_MAX_LLM_CALLS);
  }
}

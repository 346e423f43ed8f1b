import type { ArtifactService } from '../services/artifactService.js';
import type { AuthConfig, AuthCredential } from '../auth/authTypes.js';
import type { CredentialManager } from '../auth/credentialManager.js';
import { readyCredential } from '../auth/readyCredential.js';
import { redactAuthConfig } from '../auth/redactAuthConfig.js';
import type { Content, FunctionCall, Part } from '../content/content.js';
import { AdkitError, ArtifactError, MemoryError } from '../errors.js';
import { createEventActions, type EventActions, type ToolConfirmation } from '../content/eventActions.js';
import type { MemoryService, SearchMemoryResponse } from '../services/memoryService.js';
import { setOwnProperty } from '../content/ownProperty.js';
import type { Session } from '../sessions/session.js';
import { DeltaState } from '../sessions/state.js';
import type { Logger } from './logger.js';
import type { RequestContext } from './requestContext.js';
import type { RunContext } from './runContext.js';
import type { ProgressReport, ToolContext } from './toolContext.js';
import { bindConfirmationSecret } from '../confirmation/confirmationSecret.js';

/** What a context reads from its invocation. `InvocationContext` satisfies it. */
export interface ContextSource {
  readonly invocationId: string;
  readonly agentName: string;
  readonly session: Session;
  readonly artifactService?: ArtifactService;
  readonly memoryService?: MemoryService;
  readonly userContent?: Content;
  readonly branch?: string;
  readonly signal: AbortSignal;
  readonly context: RunContext;
  readonly logger: Logger;
  readonly credentials?: CredentialManager;
  readonly authConfigsAsked?: Map<string, AuthConfig>;
  /** The runner's confirmation secret: reachable by the flow (sub-agents), never by tools. */
  readonly confirmationSecret?: string;
}

export interface FlowContextInit {
  actions?: EventActions;
  /**
   * Defaults to the invocation's signal; a tool call passes its own (linked to the run's, joined
   * with its timeout), or a function that makes it on first read.
   */
  signal?: AbortSignal | (() => AbortSignal);
}

export interface ToolCallContextInit extends FlowContextInit {
  functionCall?: FunctionCall;
  functionCallId: string;
  toolConfirmation?: ToolConfirmation;
  resumeState?: unknown;
  onProgress?: (progress: ProgressReport) => void;
}

/**
 * The implementation of `ReadonlyContext`, `CallbackContext` and `RequestContext`: what
 * callbacks, instruction providers, toolsets and request processors get.
 */
export class FlowContext implements RequestContext {
  readonly actions: EventActions;
  readonly state: DeltaState;
  // A true private field: tools cannot reach the session's events or services through it (TC-11).
  readonly #source: ContextSource;
  #signal: AbortSignal | (() => AbortSignal);

  constructor(source: ContextSource, init: FlowContextInit = {}) {
    this.#source = source;
    this.actions = init.actions ?? createEventActions();
    this.state = new DeltaState(source.session.state, this.actions.stateDelta);
    // Read on first use: the run's signal is made only when something asks for it (#24).
    this.#signal = init.signal ?? (() => source.signal);
  }

  /** Aborted when the run is cancelled (or, for a tool call, when its time limit passes). */
  get signal(): AbortSignal {
    const signal = this.#signal;
    if (typeof signal !== 'function') return signal;
    return (this.#signal = signal());
  }

  get userContent(): Content | undefined {
    return this.#source.userContent;
  }
  get invocationId(): string {
    return this.#source.invocationId;
  }
  get agentName(): string {
    return this.#source.agentName;
  }
  get appName(): string {
    return this.#source.session.appName;
  }
  get userId(): string {
    return this.#source.session.userId;
  }
  get sessionId(): string {
    return this.#source.session.id;
  }
  get branch(): string | undefined {
    return this.#source.branch;
  }
  get context(): RunContext {
    return this.#source.context;
  }
  get logger(): Logger {
    return this.#source.logger;
  }

  async getCredential(config: AuthConfig, options: { forceRefresh?: boolean } = {}): Promise<AuthCredential | undefined> {
    const manager = this.#source.credentials;
    if (!manager) return readyCredential(config);
    return manager.getCredential(
      config,
      { appName: this.appName, userId: this.userId, sessionId: this.sessionId },
      { signal: this.signal, forceRefresh: options.forceRefresh === true },
    );
  }

  async loadArtifact(filename: string, version?: number): Promise<Part | undefined> {
    return this.artifacts().loadArtifact({ ...this.sessionKey(), filename, version });
  }

  async saveArtifact(filename: string, artifact: Part): Promise<number> {
    const version = await this.artifacts().saveArtifact({ ...this.sessionKey(), filename, artifact });
    setOwnProperty(this.actions.artifactDelta, filename, version);
    return version;
  }

  async listArtifacts(): Promise<string[]> {
    return this.artifacts().listArtifactKeys(this.sessionKey());
  }

  async searchMemory(query: string): Promise<SearchMemoryResponse> {
    const memory = this.#source.memoryService;
    if (!memory)
      throw new MemoryError('memory service is not set; pass memoryService to the Runner (InMemoryRunner has one).');
    return memory.searchMemory({ appName: this.appName, userId: this.userId, query, signal: this.signal });
  }

  private artifacts(): ArtifactService {
    const service = this.#source.artifactService;
    if (!service)
      throw new ArtifactError(
        'artifact service is not set; pass artifactService to the Runner (InMemoryRunner has one).',
      );
    return service;
  }

  private sessionKey() {
    return { appName: this.appName, userId: this.userId, sessionId: this.sessionId };
  }
}

const managers = new WeakMap<ToolContext, CredentialManager>();

/**
 * The runner's credential manager behind a tool context, for the flow's own use (a sub-agent's
 * runner borrows it); tools use `getCredential`/`requestCredential` instead.
 */
export function credentialManagerOf(ctx: ToolContext): CredentialManager | undefined {
  return managers.get(ctx);
}

/** The implementation of `ToolContext`: a `FlowContext` for one function call. */
export class ToolCallContext extends FlowContext implements ToolContext {
  readonly functionCallId: string;
  readonly functionCall?: FunctionCall;
  readonly toolConfirmation?: ToolConfirmation;
  readonly resumeState?: unknown;
  readonly #onProgress?: (progress: ProgressReport) => void;
  readonly #credentials?: CredentialManager;
  /** Where the configs this call asks with are kept: read when it asks, so its map is made only then. */
  readonly #askedIn: Pick<ContextSource, 'authConfigsAsked'>;
  #credential?: AuthCredential;

  constructor(source: ContextSource, init: ToolCallContextInit) {
    super(source, init);
    this.#credentials = source.credentials;
    if (source.credentials) managers.set(this, source.credentials);
    bindConfirmationSecret(this, source.confirmationSecret);
    this.#askedIn = source;
    if (!init.functionCallId)
      throw new AdkitError('TOOL_ERROR', 'A tool context needs the function call id of the call it answers.');
    this.functionCallId = init.functionCallId;
    this.functionCall = init.functionCall;
    this.toolConfirmation = init.toolConfirmation;
    this.resumeState = init.resumeState;
    this.#onProgress = init.onProgress;
  }

  setResumeState(state: unknown): void {
    this.actions.resumeStates = { ...this.actions.resumeStates };
    setOwnProperty(this.actions.resumeStates, this.functionCallId, state);
  }

  requestConfirmation(request: { hint?: string; payload?: unknown } = {}): void {
    const confirmation: ToolConfirmation = { confirmed: false };
    if (request.hint !== undefined) confirmation.hint = request.hint;
    if (request.payload !== undefined) confirmation.payload = request.payload;
    this.actions.requestedToolConfirmations = { ...this.actions.requestedToolConfirmations };
    setOwnProperty(this.actions.requestedToolConfirmations, this.functionCallId, confirmation);
    this.actions.skipSummarization = true;
  }

  requestCredential(config: AuthConfig): void {
    if (!config || typeof config !== 'object' || !config.authScheme || typeof config.authScheme.type !== 'string')
      throw new AdkitError('INVALID_AUTH_CONFIG', 'requestCredential needs an AuthConfig with an authScheme ({type: "oauth2", flows: {...}} and so on).');
    if (!this.#credentials)
      throw new AdkitError(
        'NO_CREDENTIAL_MANAGER',
        'This tool asked the user for a credential, but the runner has no credential manager; pass credentials: credentialManager({credentialService}) from @adkit/auth to the Runner.',
      );
    this.actions.requestedAuthConfigs = { ...this.actions.requestedAuthConfigs };
    setOwnProperty(this.actions.requestedAuthConfigs, this.functionCallId, redactAuthConfig(config));
    this.#askedIn.authConfigsAsked?.set(this.functionCallId, config);
    this.actions.skipSummarization = true;
  }

  override async getCredential(config: AuthConfig, options: { forceRefresh?: boolean } = {}): Promise<AuthCredential | undefined> {
    const credential = await super.getCredential(config, options);
    if (credential) this.#credential = credential;
    return credential;
  }

  get credential(): AuthCredential | undefined {
    return this.#credential;
  }

  reportProgress(progress: ProgressReport): void {
    this.#onProgress?.(progress);
  }
}

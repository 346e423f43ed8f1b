import type { ArtifactService } from '../services/artifactService.js';
import type { Content, FunctionCall, Part } from '../content/content.js';
import { AdkitError, ArtifactError, MemoryError } from '../errors.js';
import { createEventActions, type EventActions, type ToolConfirmation } from '../content/eventActions.js';
import type { MemoryService, SearchMemoryResponse } from '../services/memoryService.js';
import type { Session } from '../sessions/session.js';
import { DeltaState } from '../sessions/state.js';
import type { ProgressReport, ToolContext } from './toolContext.js';

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
}

export interface FlowContextInit {
  actions?: EventActions;
  functionCall?: FunctionCall;
  functionCallId?: string;
  toolConfirmation?: ToolConfirmation;
  /** Defaults to the invocation's signal; a tool call passes one joined with its timeout. */
  signal?: AbortSignal;
  onProgress?: (progress: ProgressReport) => void;
}

/** The one implementation of `ReadonlyContext`, `CallbackContext` and `ToolContext`. */
export class FlowContext implements ToolContext {
  readonly actions: EventActions;
  readonly state: DeltaState;
  readonly functionCallId: string;
  readonly functionCall?: FunctionCall;
  readonly toolConfirmation?: ToolConfirmation;
  readonly signal: AbortSignal;
  // A true private field: tools cannot reach the session's events or services through it (TC-11).
  readonly #source: ContextSource;
  readonly #onProgress?: (progress: ProgressReport) => void;

  constructor(source: ContextSource, init: FlowContextInit = {}) {
    this.#source = source;
    this.actions = init.actions ?? createEventActions();
    this.state = new DeltaState(source.session.state, this.actions.stateDelta);
    this.functionCallId = init.functionCallId ?? init.functionCall?.id ?? '';
    this.functionCall = init.functionCall;
    this.toolConfirmation = init.toolConfirmation;
    this.signal = init.signal ?? source.signal;
    this.#onProgress = init.onProgress;
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

  async loadArtifact(filename: string, version?: number): Promise<Part | undefined> {
    return this.artifacts().loadArtifact({ ...this.sessionKey(), filename, version });
  }

  async saveArtifact(filename: string, artifact: Part): Promise<number> {
    const version = await this.artifacts().saveArtifact({ ...this.sessionKey(), filename, artifact });
    this.actions.artifactDelta[filename] = version;
    return version;
  }

  async listArtifacts(): Promise<string[]> {
    return this.artifacts().listArtifactKeys(this.sessionKey());
  }

  async searchMemory(query: string): Promise<SearchMemoryResponse> {
    const memory = this.#source.memoryService;
    if (!memory)
      throw new MemoryError('memory service is not set; pass memoryService to the Runner (InMemoryRunner has one).');
    return memory.searchMemory({ appName: this.appName, userId: this.userId, query });
  }

  requestConfirmation(request: { hint?: string; payload?: unknown } = {}): void {
    if (!this.functionCallId)
      throw new AdkitError(
        'TOOL_ERROR',
        'function call id not set when requesting confirmation for tool; requestConfirmation works only inside a tool call.',
      );
    const confirmation: ToolConfirmation = { confirmed: false };
    if (request.hint !== undefined) confirmation.hint = request.hint;
    if (request.payload !== undefined) confirmation.payload = request.payload;
    this.actions.requestedToolConfirmations = { ...this.actions.requestedToolConfirmations, [this.functionCallId]: confirmation };
    this.actions.skipSummarization = true;
  }

  reportProgress(progress: ProgressReport): void {
    this.#onProgress?.(progress);
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


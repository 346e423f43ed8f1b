import type { ArtifactService } from '../services/artifactService.js';
import type { Content, FunctionCall } from '../content/content.js';
import { createEventActions, type EventActions, type ToolConfirmation } from '../content/eventActions.js';
import { ToolCallContext } from '../context/flowContext.js';
import { stderrLogger, type Logger } from '../context/logger.js';
import type { RunContext } from '../context/runContext.js';
import { newFunctionCallId, newId } from '../content/ids.js';
import { InMemoryArtifactService } from '../services/inMemoryArtifactService.js';
import type { MemoryService } from '../services/memoryService.js';
import type { Session } from '../sessions/session.js';
import type { CredentialManager } from '../auth/credentialManager.js';
import type { ProgressReport, ToolContext } from '../context/toolContext.js';

export interface TestToolContextOptions {
  /** The session's state; writes through the context show up here. */
  state?: Record<string, unknown>;
  functionCall?: FunctionCall;
  functionCallId?: string;
  toolConfirmation?: ToolConfirmation;
  actions?: EventActions;
  signal?: AbortSignal;
  userContent?: Content;
  agentName?: string;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  onProgress?: (progress: ProgressReport) => void;
  /** What the tool reads as `ctx.context` (default `{}`). */
  context?: RunContext;
  /** Where `ctx.logger` writes (default: stderr). */
  logger?: Logger;
  /** What the call saved when it paused (`ctx.resumeState`). */
  resumeState?: unknown;
  /** The credential manager `getCredential`/`requestCredential` use. */
  credentials?: CredentialManager;
}

/**
 * A real `ToolContext` for unit-testing a tool without a runner: in-memory artifacts, a session
 * of its own, the given state and confirmation. Inspect `context.actions` after the call.
 */
export function createToolContext(options: TestToolContextOptions = {}): ToolContext & { readonly session: Session } {
  const session: Session = {
    id: newId(),
    appName: 'test-app',
    userId: 'test-user',
    state: options.state ?? {},
    events: [],
    lastUpdateTime: Date.now(),
  };
  const source = {
    invocationId: `e-${newId()}`,
    agentName: options.agentName ?? 'test_agent',
    session,
    artifactService: options.artifactService ?? new InMemoryArtifactService(),
    memoryService: options.memoryService,
    userContent: options.userContent,
    signal: options.signal ?? new AbortController().signal,
    context: options.context ?? {},
    logger: options.logger ?? stderrLogger,
    credentials: options.credentials,
  };
  const context = new ToolCallContext(source, {
    actions: options.actions ?? createEventActions(),
    functionCall: options.functionCall,
    functionCallId: options.functionCallId ?? options.functionCall?.id ?? newFunctionCallId(),
    toolConfirmation: options.toolConfirmation,
    resumeState: options.resumeState,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  return Object.assign(context, { session });
}

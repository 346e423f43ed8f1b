import type { Context, Span } from '@opentelemetry/api';
import type { FunctionCall } from '@adkit/flow';
import type { PauseReason } from './spanAttributes.js';
import type { ResumedCall } from './pausedSpans.js';

/** An open `execute_tool` span. */
export interface ToolSpan {
  span: Span;
  callId: string;
  /** What the on-error callback saw; the after callback tells whether it stayed an error. */
  error?: { thrown: unknown };
}

/** A function call seen in a model event, until its response arrives. */
export interface PendingCall {
  call: FunctionCall;
  /** When the model event was seen (ms since the epoch). */
  seenAt: number;
  /** Whether a tool callback opened a span for it. */
  traced: boolean;
}

/**
 * The spans of one invocation: its `invoke_agent` span, and the model and tool spans still open,
 * keyed by what identifies them even when tools run in parallel — the request object of a model
 * call, the tool context of a tool call (each call has its own, even when a model repeats an id).
 */
export class InvocationSpans {
  /** Open `chat` spans by request, with the agent that called the model. */
  readonly models = new Map<object, { span: Span; agentName: string }>();
  /** Open `execute_tool` spans by tool context. */
  readonly tools = new Map<object, ToolSpan>();
  /** Calls of the model events, by call id, until their responses arrive. */
  readonly pending = new Map<string, PendingCall>();
  inputTokens = 0;
  outputTokens = 0;
  usageSeen = false;
  pauseReason?: PauseReason;
  errorCode?: string;
  errorMessage?: string;

  constructor(
    /** The `invoke_agent` span. */
    readonly span: Span,
    /** The OpenTelemetry context whose active span is `span`: the parent of every other span. */
    readonly parent: Context,
    /** The paused calls this invocation's message resumes. */
    readonly resumed: ReadonlyMap<string, ResumedCall>,
    /** Stops listening to the run's signal. */
    readonly release: () => void,
  ) {}
}

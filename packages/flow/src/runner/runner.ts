import type { ArtifactService } from '../services/artifactService.js';
import type { BaseAgent } from '../agents/baseAgent.js';
import type { Content } from '../content/content.js';
import type { CredentialManager } from '../auth/credentialManager.js';
import { redactCredentialReplies } from '../auth/redactCredentialReplies.js';
import { AdkitError, ConfigError, SessionError, errorMessage, isAdkitError } from '../errors.js';
import { createEvent, getFunctionCalls, type Event } from '../content/event.js';
import { newId } from '../content/ids.js';
import { exceedsDepth, MAX_VALUE_DEPTH } from '../content/valueDepth.js';
import { InvocationContext } from '../context/invocationContext.js';
import { RunCanceller } from '../context/runCancellation.js';
import { stderrLogger, type Logger } from '../context/logger.js';
import type { RunContext } from '../context/runContext.js';
import type { MemoryService } from '../services/memoryService.js';
import type { Plugin } from './plugin.js';
import type { RunConfig } from './runConfig.js';
import type { Session, SessionService } from '../sessions/session.js';
import { isClosable } from '../tools/tool.js';
import { isTransferableAcrossTree } from '../agents/agentTransfer.js';
import { LlmAgent } from '../agents/llmAgent.js';
import { refuseRepeatedReply } from '../llmFlow/repeatedReply.js';
import { appendAfterConflict } from './appendAfterConflict.js';
import { isResumedResult, markResumedResult } from '../llmFlow/resumedResults.js';
import { openTasksOfHistory } from '../agents/taskEvents.js';

export interface RunnerOptions {
  appName: string;
  agent: BaseAgent;
  sessionService: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  plugins?: readonly Plugin[];
  /** Create the session on first use instead of failing when it does not exist. */
  autoCreateSession?: boolean;
  /** Where warnings and errors go (console-compatible); default: stderr. */
  logger?: Logger;
  /** After each run that finishes, add the session to `memoryService` (for `load_memory` and friends). */
  addSessionsToMemory?: boolean;
  /**
   * A secret that keys confirmation digests (HMAC-SHA-256), so a stored confirmation request whose
   * call was edited is refused even when its digest was recomputed. Keep it out of the session.
   */
  confirmationSecret?: string;
  /**
   * Runs the credential protocol for tools that ask for one (`ctx.requestCredential`,
   * `functionTool({auth})`): `credentialManager({credentialService})` from `@adkit/auth`.
   */
  credentials?: CredentialManager;
}

export interface RunAsyncRequest {
  userId: string;
  sessionId: string;
  /** The user's message; may carry function responses (a long-running tool's answer, a confirmation). */
  newMessage?: Content;
  /** State changes saved with the user's message. */
  stateDelta?: Record<string, unknown>;
  runConfig?: RunConfig;
  /** Cancels the run: in-flight tools and the model call abort, and no event follows. */
  signal?: AbortSignal;
  /**
   * What this run's tools, toolsets and callbacks read as `ctx.context` (clients, tokens, per-user
   * headers). Never saved, never in events, state or instructions.
   */
  context?: RunContext;
}

/** Thrown inside a run to end it quietly (it was cancelled). */
class RunEnded extends Error {}

/** Thrown inside a run to end it with an error event that is already saved and still to be yielded. */
class EndWith extends Error {
  constructor(readonly event: Event) {
    super(event.errorMessage);
  }
}

/**
 * Runs an agent tree against a session. Every complete event is appended to the session before it
 * is yielded, so a paused run resumes from the saved events alone, in a new process too. One
 * exception: a message that delivers again an answer whose call is still running, or that only
 * repeats approvals already used, gets one error event (`CALL_IN_PROGRESS`,
 * `CONFIRMATION_ALREADY_USED`) that is yielded but not saved, and nothing of it is saved.
 *
 * Each run has its own abort signal (joined with the caller's): leaving the `for await` early, or
 * calling `return()`, cancels the run — tools and the model call see `ctx.signal` abort and
 * nothing more is saved. A plugin callback that throws (`beforeRun`, `onEvent`, `afterRun`), or an
 * event the session store refuses, ends the run with a saved and yielded error event
 * (`PLUGIN_ERROR`, `STORE_ERROR`); `runAsync` itself throws only when the session cannot be loaded,
 * when another runner appended to the session first (`SESSION_CONFLICT`: load it again and retry),
 * or when the store fails even to save that error event. One exception keeps work that happened:
 * a resumed call's result (and a request it made pausing again) is appended to the reloaded
 * session and the run ends there; a run whose only rival append was such a result appends after
 * it (`appendAfterConflict`).
 */
export class Runner implements AsyncDisposable {
  readonly appName: string;
  readonly agent: BaseAgent;
  readonly sessionService: SessionService;
  readonly artifactService?: ArtifactService;
  readonly memoryService?: MemoryService;
  readonly plugins: readonly Plugin[];
  readonly logger: Logger;
  private readonly autoCreateSession: boolean;
  private readonly addSessionsToMemory: boolean;
  private readonly confirmationSecret?: string;
  private readonly credentials?: CredentialManager;

  constructor(options: RunnerOptions) {
    this.appName = options.appName;
    this.agent = options.agent;
    this.sessionService = options.sessionService;
    this.artifactService = options.artifactService;
    this.memoryService = options.memoryService;
    this.plugins = [...(options.plugins ?? [])];
    this.logger = options.logger ?? stderrLogger;
    this.autoCreateSession = options.autoCreateSession ?? false;
    this.addSessionsToMemory = options.addSessionsToMemory ?? false;
    this.confirmationSecret = options.confirmationSecret;
    this.credentials = options.credentials;
    if (this.addSessionsToMemory && !this.memoryService)
      throw new ConfigError('Runner: addSessionsToMemory needs a memoryService; pass one (InMemoryRunner has one).');
    const names = new Set<string>();
    for (const plugin of this.plugins) {
      if (names.has(plugin.name))
        throw new ConfigError(`Two plugins are named "${plugin.name}"; plugin names must be unique.`);
      names.add(plugin.name);
    }
  }

  /** Runs one invocation and yields its events (partial ones included, but never saved). */
  async *runAsync(request: RunAsyncRequest): AsyncGenerator<Event, void, undefined> {
    // A message or state the store could not hold would break the session for good: refuse it first.
    if (exceedsDepth(request.newMessage, MAX_VALUE_DEPTH + 4) || exceedsDepth(request.stateDelta, MAX_VALUE_DEPTH + 1))
      throw new AdkitError(
        'INVALID_MESSAGE',
        `runAsync: newMessage or stateDelta nests deeper than ${MAX_VALUE_DEPTH} levels; nothing was saved. Send flatter data.`,
      );
    // The run's own cancellation, joined with the caller's signal; its AbortSignal is made only
    // when something reads it (a model adapter, a tool, a callback): most turns never do (#24).
    const run = new RunCanceller();
    const stopWithCaller = () => run.abort(request.signal?.reason);
    if (request.signal?.aborted) return;
    request.signal?.addEventListener('abort', stopWithCaller, { once: true });
    let finished = false;
    try {
      const session = await this.loadSession(request);
      const context = new InvocationContext({
        invocationId: `e-${newId()}`,
        agent: this.agent,
        session,
        sessionService: this.sessionService,
        artifactService: this.artifactService,
        memoryService: this.memoryService,
        userContent: request.newMessage && redactCredentialReplies(request.newMessage),
        runConfig: request.runConfig,
        signal: run,
        plugins: this.plugins,
        context: request.context,
        logger: this.logger,
        confirmationSecret: this.confirmationSecret,
        credentials: this.credentials,
      });
      if (request.newMessage && context.userContent !== request.newMessage) context.keepCredentialReplies(request.newMessage);
      try {
        // The invocation's body, here rather than in a generator of its own: every event passes one
        // layer fewer (#24). `break invocation` ends it as a return would.
        invocation: {
          const cancellation = context.cancellation;
          const early = this.plugins.length > 0 ? await this.beforeRun(context) : undefined;
          if (early) {
            yield early;
            break invocation;
          }

          // While a task is open the user talks with it (#27): the message joins the innermost task, and
          // the agent that called the outermost one continues it. A task of agents not in the tree is ignored.
          const tasks = openTasksOfHistory(session.events).filter((task) => this.agent.findAgent(task.agent) && this.agent.findAgent(task.parent));
          if (request.newMessage) {
            // The same answer delivered again while its call runs is refused before anything is saved,
            // so the running call's result is kept (#23); the refusal is yielded, not saved.
            const repeated = refuseRepeatedReply(context, request.newMessage);
            if (repeated) {
              yield repeated;
              break invocation;
            }
            const userEvent = createEvent({
              invocationId: context.invocationId,
              author: 'user',
              branch: tasks.at(-1)?.branch,
              // A credential reply's response URI holds the code: exchanged from this run's message, never saved.
              content: context.userContent!,
              actions: { stateDelta: { ...request.stateDelta } },
            });
            try {
              await this.sessionService.appendEvent(session, userEvent);
            } catch (error) {
              await this.saveFailed(context, userEvent, error);
            }
          }
          if (cancellation.aborted) break invocation;

          const agent = (tasks[0] && this.agent.findAgent(tasks[0].parent)) || this.agentToRun(session, request.newMessage);
          // A loop left early closes the agent's events (its `return()`, awaited); one that ran to the
          // end needs no `return()` (3 promises and a tick a run fewer, #24).
          for await (let event of agent.runAsync(context)) {
            if (cancellation.aborted) break invocation;
            if (this.plugins.length > 0) {
              event = await this.onEvent(context, event);
              if (cancellation.aborted) break invocation;
            }
            if (!event.partial)
              try {
                await this.sessionService.appendEvent(session, event);
              } catch (error) {
                await this.saveFailed(context, event, error);
              }
            if (cancellation.aborted) break invocation;
            yield event;
          }
          if (cancellation.aborted) break invocation;
          if (this.plugins.length > 0) await this.afterRun(context);
          if (this.addSessionsToMemory && this.memoryService)
            await this.memoryService.addSessionToMemory(session).catch((error: unknown) =>
              this.logger.warn(`adkit: adding session "${session.id}" to memory failed: ${errorMessage(error)}`),
            );
        }
        finished = !run.aborted;
      } catch (error) {
        if (!(error instanceof EndWith) && !(error instanceof RunEnded)) throw error;
        // The run ends here: whatever still runs (tools of a step a plugin broke off) is cancelled.
        run.abort(new AdkitError('RUN_ENDED', error.message || 'The run ended.'));
        if (error instanceof EndWith) yield error.event;
        finished = true;
      }
    } finally {
      request.signal?.removeEventListener('abort', stopWithCaller);
      // Leaving early (break, return(), a throw) cancels whatever still runs.
      if (!finished) run.abort(new AdkitError('RUN_CANCELLED', 'The consumer stopped reading the run.'));
    }
  }

  // The plugin callbacks of a run, in methods of their own: the run's generator captures no
  // variable for their closures, so its events stay in registers (no context made per event, #24).

  /** The first `beforeRunCallback` content, saved as the run's only event; `undefined` to run on. */
  private async beforeRun(context: InvocationContext): Promise<Event | undefined> {
    for (const plugin of this.plugins) {
      const content = await this.pluginCall(context, plugin, 'beforeRunCallback', () => plugin.beforeRunCallback?.({ context }));
      if (content) return this.save(context, createEvent({ invocationId: context.invocationId, author: 'model', content }));
    }
    return undefined;
  }

  /** The event as the first plugin that replaces it gives it (`onEventCallback`), or as it is. */
  private async onEvent(context: InvocationContext, event: Event): Promise<Event> {
    for (const plugin of this.plugins) {
      const replaced = await this.pluginCall(context, plugin, 'onEventCallback', () => plugin.onEventCallback?.({ context, event }));
      if (replaced) {
        // A resumed call's result stays one when a plugin replaces it (see `appendAfterConflict`).
        if (isResumedResult(event)) markResumedResult(replaced);
        return replaced;
      }
    }
    return event;
  }

  private async afterRun(context: InvocationContext): Promise<void> {
    for (const plugin of this.plugins)
      await this.pluginCall(context, plugin, 'afterRunCallback', () => plugin.afterRunCallback?.({ context }));
  }

  /**
   * Appends the event; when the store refuses it, saves and yields an error event instead and ends
   * the run. For a plugin's early answer: the run's own events are awaited in place, in runAsync,
   * with `saveFailed` on a refusal (no promise and no closures of their own per event, #24).
   */
  private async save(context: InvocationContext, event: Event): Promise<Event> {
    // A store that throws instead of rejecting is handled the same way.
    try {
      await this.sessionService.appendEvent(context.session, event);
    } catch (error) {
      return this.saveFailed(context, event, error);
    }
    return event;
  }

  private async saveFailed(context: InvocationContext, event: Event, error: unknown): Promise<Event> {
    if (context.aborted) throw new RunEnded();
    // Another runner appended first: nothing of this run may be saved; the caller retries. Only
    // a resumed call's result (it ran) is appended to the reloaded session, never lost (#23).
    if (isAdkitError(error) && error.code === 'SESSION_CONFLICT') {
      if (await appendAfterConflict(this.sessionService, context, event)) return event;
      throw error;
    }
    const failure = createEvent({
      invocationId: context.invocationId,
      author: event.author === 'user' ? this.agent.name : event.author,
      branch: event.branch,
      errorCode: 'STORE_ERROR',
      errorMessage: `The session store refused an event from "${event.author}": ${errorMessage(error)}`,
    });
    await this.sessionService.appendEvent(context.session, failure);
    throw new EndWith(failure);
  }

  /** Runs one plugin callback under the shared policy: a throw ends the run with a `PLUGIN_ERROR` event. */
  private async pluginCall<T>(context: InvocationContext, plugin: Plugin, callback: string, call: () => T | Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (context.aborted) throw new RunEnded();
      // Another runner appended first: nothing of this run may be saved; the caller retries.
      if (isAdkitError(error) && error.code === 'SESSION_CONFLICT') throw error;
      const failure = createEvent({
        invocationId: context.invocationId,
        author: this.agent.name,
        errorCode: 'PLUGIN_ERROR',
        errorMessage: `Plugin "${plugin.name}" failed in ${callback}: ${errorMessage(error)}`,
      });
      await this.sessionService.appendEvent(context.session, failure);
      throw new EndWith(failure);
    }
  }

  /**
   * Closes every toolset of every agent in the tree and every tool that holds resources, all at
   * once; a failure of one does not stop the others, and all failures are reported together.
   */
  async close(): Promise<void> {
    const closables = new Set<{ name: string; close(): Promise<void> }>();
    const visit = (agent: BaseAgent) => {
      if (agent instanceof LlmAgent)
        for (const item of [...agent.toolsets, ...agent.tools]) if (isClosable(item)) closables.add(item);
      agent.subAgents.forEach(visit);
    };
    visit(this.agent);
    const results = await Promise.allSettled([...closables].map((item) => item.close()));
    const failures = results.flatMap((result, i) =>
      result.status === 'rejected' ? [`${[...closables][i]!.name}: ${errorMessage(result.reason)}`] : [],
    );
    if (failures.length > 0) throw new AdkitError('CLOSE_ERROR', `Closing tools failed: ${failures.join('; ')}`);
  }

  /** `await using runner = new Runner(...)` closes it when the scope ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async loadSession(request: RunAsyncRequest): Promise<Session> {
    const key = { appName: this.appName, userId: request.userId, sessionId: request.sessionId };
    const session = await this.sessionService.getSession(key);
    if (session) return session;
    if (this.autoCreateSession) return this.sessionService.createSession(key);
    throw new SessionError(
      `Session "${request.sessionId}" not found for app "${this.appName}" and user "${request.userId}"; create it first with sessionService.createSession({appName, userId, sessionId}), or pass autoCreateSession: true to the Runner.`,
    );
  }

  /**
   * Which agent takes the message: one answering function calls goes to the agent that made them
   * (HC-7), so the agent that asked resumes; otherwise the agent that spoke last keeps the
   * conversation if it was transferred to and can hand back (see `isTransferableAcrossTree`);
   * otherwise the root.
   */
  private agentToRun(session: Session, message: Content | undefined): BaseAgent {
    const responseId = message?.parts?.find((part) => part.functionResponse?.id)?.functionResponse?.id;
    if (responseId)
      for (let i = session.events.length - 1; i >= 0; i--) {
        const event = session.events[i]!;
        if (getFunctionCalls(event).some((call) => call.id === responseId))
          return this.agent.findAgent(event.author) ?? this.agent;
      }
    for (let i = session.events.length - 1; i >= 0; i--) {
      const author = session.events[i]!.author;
      if (author === 'user') continue;
      if (author === this.agent.name) return this.agent;
      const agent = this.agent.findAgent(author);
      if (agent && isTransferableAcrossTree(agent)) return agent;
    }
    return this.agent;
  }
}

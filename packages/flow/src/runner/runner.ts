import type { ArtifactService } from '../services/artifactService.js';
import type { BaseAgent } from '../agents/baseAgent.js';
import type { Content } from '../content/content.js';
import { SessionError, errorMessage } from '../errors.js';
import { createEvent, getFunctionCalls, type Event } from '../content/event.js';
import { newId } from '../content/ids.js';
import { InvocationContext } from '../context/invocationContext.js';
import type { MemoryService } from '../services/memoryService.js';
import type { Plugin } from './plugin.js';
import type { RunConfig } from './runConfig.js';
import type { Session, SessionService } from '../sessions/session.js';
import type { Toolset } from '../tools/tool.js';
import { isTransferableAcrossTree } from '../agents/agentTransfer.js';
import { LlmAgent } from '../agents/llmAgent.js';

/** The signal of runs that were given none: nothing can abort it, so one serves every run. */
const NEVER_ABORTED = new AbortController().signal;

export interface RunnerOptions {
  appName: string;
  agent: BaseAgent;
  sessionService: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  plugins?: readonly Plugin[];
  /** Create the session on first use instead of failing when it does not exist. */
  autoCreateSession?: boolean;
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
}

/**
 * Runs an agent tree against a session. Every complete event is appended to the session before it
 * is yielded, so a paused run resumes from the saved events alone, in a new process too.
 */
export class Runner {
  readonly appName: string;
  readonly agent: BaseAgent;
  readonly sessionService: SessionService;
  readonly artifactService?: ArtifactService;
  readonly memoryService?: MemoryService;
  readonly plugins: readonly Plugin[];
  private readonly autoCreateSession: boolean;

  constructor(options: RunnerOptions) {
    this.appName = options.appName;
    this.agent = options.agent;
    this.sessionService = options.sessionService;
    this.artifactService = options.artifactService;
    this.memoryService = options.memoryService;
    this.plugins = [...(options.plugins ?? [])];
    this.autoCreateSession = options.autoCreateSession ?? false;
    const names = new Set<string>();
    for (const plugin of this.plugins) {
      if (names.has(plugin.name))
        throw new SessionError(`Two plugins are named "${plugin.name}"; plugin names must be unique.`);
      names.add(plugin.name);
    }
  }

  /** Runs one invocation and yields its events (partial ones included, but never saved). */
  async *runAsync(request: RunAsyncRequest): AsyncGenerator<Event, void, undefined> {
    const signal = request.signal ?? NEVER_ABORTED;
    const session = await this.loadSession(request);
    const context = new InvocationContext({
      invocationId: `e-${newId()}`,
      agent: this.agent,
      session,
      sessionService: this.sessionService,
      artifactService: this.artifactService,
      memoryService: this.memoryService,
      userContent: request.newMessage,
      runConfig: request.runConfig,
      signal,
      plugins: this.plugins,
    });

    for (const plugin of this.plugins) {
      const content = await plugin.beforeRunCallback?.({ context });
      if (content) {
        const event = createEvent({ invocationId: context.invocationId, author: 'model', content });
        await this.sessionService.appendEvent(session, event);
        yield event;
        return;
      }
    }

    if (request.newMessage) {
      const userEvent = createEvent({
        invocationId: context.invocationId,
        author: 'user',
        content: request.newMessage,
        actions: { stateDelta: { ...request.stateDelta } },
      });
      await this.sessionService.appendEvent(session, userEvent);
    }
    if (signal.aborted) return;

    const agent = this.agentToRun(session, request.newMessage);
    const events = agent.runAsync(context.withAgent(agent));
    try {
      for await (let event of events) {
        if (signal.aborted) return;
        for (const plugin of this.plugins) {
          const replaced = await plugin.onEventCallback?.({ context, event });
          if (replaced) {
            event = replaced;
            break;
          }
        }
        if (!event.partial) await this.sessionService.appendEvent(session, event);
        if (signal.aborted) return;
        yield event;
      }
    } finally {
      await events.return(undefined);
    }
    if (signal.aborted) return;
    for (const plugin of this.plugins) await plugin.afterRunCallback?.({ context });
  }

  /** Closes every toolset of every agent in the tree (MCP connections, say). */
  async close(): Promise<void> {
    const toolsets = new Set<Toolset>();
    const visit = (agent: BaseAgent) => {
      if (agent instanceof LlmAgent) for (const toolset of agent.toolsets) toolsets.add(toolset);
      agent.subAgents.forEach(visit);
    };
    visit(this.agent);
    const failures: string[] = [];
    for (const toolset of toolsets)
      await toolset.close?.().catch((error: unknown) => failures.push(`${toolset.name}: ${errorMessage(error)}`));
    if (failures.length > 0) throw new SessionError(`Closing toolsets failed: ${failures.join('; ')}`);
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


import type { AddressInfo } from 'node:net';
import {
  AdkitError,
  ConfigError,
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  Runner,
  errorMessage,
  stderrLogger,
  type ArtifactService,
  type BaseAgent,
  type Logger,
  type MemoryService,
  type Plugin,
  type RunConfig,
  type RunContext,
  type SessionService,
} from '@adkit/flow';
import { createAdaptorServer } from '@hono/node-server';
import { isLoopbackHost, newToken } from './accessGuard.js';
import { createDevUiApp } from './devUiApp.js';
import { devUiPlugin, recorderOf } from './devUiPlugin.js';
import type { DevUiTarget } from './devUiTarget.js';
import { SessionHub } from './sessionHub.js';

/** Options of `serveDevUi`: `agents` or `runner`, and where to listen. */
export interface ServeDevUiOptions {
  /**
   * Agents to serve, each on a runner of its own (app name = the agent's name) with
   * `devUiPlugin()`, sharing in-memory services unless you pass your own.
   */
  agents?: BaseAgent | readonly BaseAgent[];
  /** Runners to serve (yours, with your services); put `devUiPlugin()` in their `plugins` for the timeline and the model request. */
  runner?: Runner | readonly Runner[];
  /** Default 8000; 0 picks a free port (read it from `server.port`). */
  port?: number;
  /** Default `127.0.0.1`. Any non-loopback address requires the token in the URL. */
  host?: string;
  /** The token the URL must carry; at least 16 characters. Default: none on loopback, else a random one. */
  token?: string;
  /** The user id the page starts with (default `user`); the page can switch users. */
  userId?: string;
  /** How the page's runs run; default `{streamingMode: 'sse'}`, so streamed text shows as it comes. */
  runConfig?: RunConfig;
  /** The per-run context of the runs the page starts (clients, tokens); never shown, never saved. */
  context?: RunContext;
  /**
   * The runners' `confirmationSecret`: with `agents`, the runners it makes get it; with `runner`,
   * pass your runner's, so the page lists the confirmations an approval resumes (requests keyed
   * with a secret are checked with it, and left out without it). Never shown.
   */
  confirmationSecret?: string;
  /** With `agents`: more plugins for their runners (after the dev UI's). */
  plugins?: readonly Plugin[];
  /** With `agents`: where sessions, artifacts and memory live (default in memory). */
  sessionService?: SessionService;
  artifactService?: ArtifactService;
  memoryService?: MemoryService;
  /** Where warnings go (default stderr). */
  logger?: Logger;
  /** The largest request body accepted (default 10 MiB). */
  maxBodyBytes?: number;
}

/** A running dev UI. */
export interface DevUiServer extends AsyncDisposable {
  /** The page's address, with `?token=…` when a token is required. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The token, when one is required. */
  readonly token?: string;
  /** Cancels the page's runs, ends the event streams, stops listening, and closes the runners it made for `agents`. */
  close(): Promise<void>;
}

/**
 * Serves the dev UI: one page to pick an agent and a session, chat, watch the live events, answer
 * confirmations and long-running calls, and inspect state, artifacts, the model's last request and
 * a timeline of each turn. Bound to 127.0.0.1 by default; bound anywhere else it requires a token
 * in the URL (compared in constant time). Resolves once it listens.
 */
export async function serveDevUi(options: ServeDevUiOptions): Promise<DevUiServer> {
  const logger = options.logger ?? stderrLogger;
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 8000;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`serveDevUi: port must be an integer from 0 to 65535, got ${String(port)}.`);
  if (typeof host !== 'string' || host.trim() === '') throw new ConfigError('serveDevUi: host must be an address such as "127.0.0.1".');
  if (options.token !== undefined && (typeof options.token !== 'string' || options.token.length < 16))
    throw new ConfigError('serveDevUi: token must be a string of at least 16 characters; leave it out to get a random one.');
  const maxBodyBytes = options.maxBodyBytes ?? 10 * 1024 * 1024;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1024) throw new ConfigError('serveDevUi: maxBodyBytes must be an integer of at least 1024.');
  const userId = options.userId ?? 'user';
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 512) throw new ConfigError('serveDevUi: userId must be a non-empty string.');
  const token = options.token ?? (isLoopbackHost(host) ? undefined : newToken());
  const runConfig = options.runConfig ?? { streamingMode: 'sse' };

  const { targets, owned } = makeTargets(options, runConfig, logger);
  const hub = new SessionHub();
  let boundPort = port;
  const { app, closeStreams } = createDevUiApp({
    targets,
    userId,
    ...(token !== undefined ? { token } : {}),
    port: () => boundPort,
    maxBodyBytes,
    hub,
    logger,
    ...(options.context ? { context: options.context } : {}),
  });
  const unsubscribes = targets.map((target) =>
    target.recorder?.subscribe((ref, change) => hub.publish(JSON.stringify([ref.appName, ref.userId, ref.sessionId]), { type: change })),
  );

  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      reject(new AdkitError('DEV_UI_LISTEN', `serveDevUi: cannot listen on ${host}:${port}: ${error.message}; pick another port (0 picks a free one).`, { cause: error }));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await Promise.allSettled(owned.map((runner) => runner.close()));
    throw error;
  });
  boundPort = (server.address() as AddressInfo).port;
  server.on('error', (error) => logger.warn(`adkit dev UI: server error: ${errorMessage(error)}`));
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${boundPort}/${token !== undefined ? `?token=${encodeURIComponent(token)}` : ''}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      hub.abortAll(new AdkitError('DEV_UI_CLOSED', 'The dev UI is closing.'));
      closeStreams();
      for (const unsubscribe of unsubscribes) unsubscribe?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      const results = await Promise.allSettled(owned.map((runner) => runner.close()));
      const failures = results.flatMap((result) => (result.status === 'rejected' ? [errorMessage(result.reason)] : []));
      if (failures.length > 0) throw new AdkitError('CLOSE_ERROR', `serveDevUi: closing the runners failed: ${failures.join('; ')}`);
    })());
  return {
    url,
    host,
    port: boundPort,
    ...(token !== undefined ? { token } : {}),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function makeTargets(options: ServeDevUiOptions, runConfig: RunConfig, logger: Logger): { targets: DevUiTarget[]; owned: Runner[] } {
  if ((options.agents === undefined) === (options.runner === undefined))
    throw new ConfigError('serveDevUi: pass either agents (agents to serve on runners it makes) or runner (your runner, or a list), not both and not neither.');
  const targets: DevUiTarget[] = [];
  const owned: Runner[] = [];
  if (options.agents !== undefined) {
    const agents: unknown[] = Array.isArray(options.agents) ? [...(options.agents as readonly unknown[])] : [options.agents];
    if (agents.length === 0) throw new ConfigError('serveDevUi: agents is empty; pass at least one agent.');
    const sessionService = options.sessionService ?? new InMemorySessionService();
    const artifactService = options.artifactService ?? new InMemoryArtifactService();
    const memoryService = options.memoryService ?? new InMemoryMemoryService();
    for (const agent of agents) {
      if (!isAgent(agent)) throw new ConfigError(`serveDevUi: agents must be agents (LlmAgent, SequentialAgent, …), got ${describe(agent)}.`);
      const plugin = devUiPlugin();
      const runner = new Runner({
        appName: agent.name,
        agent,
        sessionService,
        artifactService,
        memoryService,
        plugins: [plugin, ...(options.plugins ?? [])],
        ...(options.logger ? { logger: options.logger } : {}),
        ...(options.confirmationSecret !== undefined ? { confirmationSecret: options.confirmationSecret } : {}),
      });
      owned.push(runner);
      targets.push({ appName: agent.name, runner, recorder: recorderOf(plugin)!, runConfig, confirmationSecret: options.confirmationSecret });
    }
  } else {
    if (options.plugins || options.sessionService || options.artifactService || options.memoryService)
      throw new ConfigError('serveDevUi: plugins, sessionService, artifactService and memoryService go with agents; with runner, give them to your Runner.');
    const runners: unknown[] = Array.isArray(options.runner) ? [...(options.runner as readonly unknown[])] : [options.runner];
    if (runners.length === 0) throw new ConfigError('serveDevUi: runner is an empty list; pass at least one runner.');
    for (const runner of runners) {
      if (!isRunner(runner)) throw new ConfigError(`serveDevUi: runner must be a Runner (or InMemoryRunner), got ${describe(runner)}.`);
      const recorder = runner.plugins.map(recorderOf).find((found) => found !== undefined);
      if (!recorder)
        logger.warn(
          `adkit dev UI: runner "${runner.appName}" has no devUiPlugin(); add it to the runner's plugins to see the timeline and the model's last request.`,
        );
      targets.push({ appName: runner.appName, runner, ...(recorder ? { recorder } : {}), runConfig, confirmationSecret: options.confirmationSecret });
    }
  }
  const names = new Set<string>();
  for (const target of targets) {
    if (names.has(target.appName))
      throw new ConfigError(`serveDevUi: two agents or runners share the app name "${target.appName}"; give each a unique name.`);
    names.add(target.appName);
  }
  return { targets, owned };
}

/** Structural checks, so agents and runners from another copy of @adkit/flow are accepted too. */
function isAgent(value: unknown): value is BaseAgent {
  const agent = value as Partial<BaseAgent> | null;
  return typeof agent === 'object' && agent !== null && typeof agent.runAsync === 'function' && typeof agent.name === 'string' && Array.isArray(agent.subAgents);
}

function isRunner(value: unknown): value is Runner {
  const runner = value as Partial<Runner> | null;
  return (
    typeof runner === 'object' && runner !== null && typeof runner.runAsync === 'function' && typeof runner.appName === 'string' &&
    typeof runner.sessionService === 'object' && Array.isArray(runner.plugins)
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`;
  return typeof value;
}

import { createConfirmationReply } from '@adkit/confirmation';
import { credentialReply } from './credentialReply.js';
import { createUserContent, errorMessage, toJsonValue, type Content, type Logger, type RunContext } from '@adkit/flow';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { isLoopbackHostHeader, TOKEN_HEADER, tokenMatches } from './accessGuard.js';
import { artifactResponse } from './artifactResponse.js';
import { agentNames, type DevUiTarget } from './devUiTarget.js';
import { displayEvent } from './displayEvent.js';
import { clipString } from './displayValue.js';
import { pendingCalls } from './pendingCalls.js';
import { PAGE_HTML } from './page/pageHtml.js';
import { PAGE_SCRIPT } from './page/pageScript.js';
import { PAGE_STYLE } from './page/pageStyle.js';
import type { SessionHub } from './sessionHub.js';
import { sessionView, timelineView } from './sessionView.js';
import type { SessionRef } from './timelineRecorder.js';

/** What the dev UI's HTTP app needs. */
export interface DevUiAppOptions {
  targets: readonly DevUiTarget[];
  /** The user id the page starts with. */
  userId: string;
  /** When set, every request but the static assets must carry it (`?token=` or the header). */
  token?: string;
  /** The port the server listens on (for the `Host` check when no token is required). */
  port: () => number;
  maxBodyBytes: number;
  hub: SessionHub;
  logger: Logger;
  /** The per-run context of the runs the page starts; never sent to the page. */
  context?: RunContext;
}

/** Ids in paths: 1–512 characters, no control characters. */
const ID = /^[^\u0000-\u001f\u007f]{1,512}$/;
/** A page that reads too slowly is dropped (it reconnects and reloads) once this many messages queue. */
const MAX_QUEUED_MESSAGES = 2_000;
const PING_MS = 15_000;

const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SESSION = '/api/apps/:app/users/:user/sessions/:session';

/**
 * The dev UI as a Hono app: the page and its assets, and a JSON + server-sent-events API over the
 * targets' runners. Guards: the token when one is set, else a loopback `Host` (against DNS
 * rebinding); writes only as `application/json` from the same origin (against cross-site forms);
 * bodies up to `maxBodyBytes`.
 */
export function createDevUiApp(options: DevUiAppOptions): { app: Hono; closeStreams(): void } {
  const { hub, logger } = options;
  const targets = new Map(options.targets.map((target) => [target.appName, target]));
  const app = new Hono();
  const streams = new Set<() => void>();

  app.use('*', async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    c.header('x-frame-options', 'DENY');
    if (!c.res.headers.has('cache-control')) c.header('cache-control', 'no-store');
  });
  app.get('/assets/page.js', (c) => c.body(PAGE_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.get('/assets/page.css', (c) => c.body(PAGE_STYLE, 200, { 'content-type': 'text/css; charset=utf-8' }));
  app.use('*', async (c, next) => {
    if (options.token !== undefined) {
      const given = c.req.header(TOKEN_HEADER) ?? c.req.query('token');
      if (!tokenMatches(given, options.token))
        return c.text('This dev UI needs its token: open the URL serveDevUi printed (it ends in ?token=…).', 401);
    } else if (!isLoopbackHostHeader(c.req.header('host'), options.port())) {
      return c.text('This dev UI answers only to 127.0.0.1, localhost and [::1].', 403);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('origin');
      if (origin !== undefined && origin !== `http://${c.req.header('host')}`)
        return c.json({ error: 'Requests from other sites are refused.' }, 403);
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json'))
        return c.json({ error: 'Send JSON (content-type: application/json).' }, 415);
    }
    return next();
  });
  app.use('/api/*', bodyLimit({ maxSize: options.maxBodyBytes, onError: (c) => c.json({ error: `The body is larger than ${options.maxBodyBytes} bytes.` }, 413) }));

  app.get('/', (c) => c.html(PAGE_HTML, 200, { 'content-security-policy': PAGE_POLICY }));

  app.get('/api/apps', (c) =>
    c.json({
      userId: options.userId,
      apps: [...targets.values()].map((target) => ({
        name: target.appName,
        agent: target.runner.agent.name,
        description: clipString(target.runner.agent.description, 2_000),
        agents: agentNames(target.runner.agent),
        recording: target.recorder !== undefined,
        artifacts: target.runner.artifactService !== undefined,
      })),
    }),
  );

  app.get('/api/apps/:app/users/:user/sessions', async (c) => {
    const found = findTarget(c);
    if (found instanceof Response) return found;
    const sessions = await found.target.runner.sessionService.listSessions({ appName: found.target.appName, userId: found.userId });
    sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
    return c.json({ sessions: sessions.slice(0, 500).map((s) => ({ id: s.id, lastUpdateTime: s.lastUpdateTime })) });
  });

  app.post('/api/apps/:app/users/:user/sessions', async (c) => {
    const found = findTarget(c);
    if (found instanceof Response) return found;
    const session = await found.target.runner.sessionService.createSession({ appName: found.target.appName, userId: found.userId });
    return c.json({ id: session.id }, 201);
  });

  app.get(SESSION, async (c) => {
    const found = await findSession(c);
    if (found instanceof Response) return found;
    return c.json(await sessionView(found.target, found.session, hub.isRunning(found.key)));
  });

  app.get(`${SESSION}/timeline`, (c) => {
    const found = findRef(c);
    if (found instanceof Response) return found;
    return c.json(timelineView(found.target, found.ref));
  });

  app.get(`${SESSION}/artifact`, async (c) => {
    const found = findRef(c);
    if (found instanceof Response) return found;
    const service = found.target.runner.artifactService;
    const filename = c.req.query('name') ?? '';
    const versionText = c.req.query('version');
    const version = versionText === undefined || versionText === '' ? undefined : Number(versionText);
    if (!service) return c.json({ error: 'This runner has no artifact service.' }, 404);
    if (!ID.test(filename) || (version !== undefined && !(Number.isInteger(version) && version >= 0)))
      return c.json({ error: 'Give the artifact as ?name=<filename>[&version=<n>].' }, 400);
    let part;
    try {
      part = await service.loadArtifact({ ...found.ref, filename, ...(version !== undefined ? { version } : {}) });
    } catch (error) {
      return c.json({ error: clipString(errorMessage(error), 2_000) }, 400);
    }
    if (!part) return c.json({ error: `No artifact "${clipString(filename, 200)}"${version !== undefined ? ` version ${version}` : ''}.` }, 404);
    return artifactResponse(part, filename, c.req.query('download') === '1');
  });

  app.get(`${SESSION}/stream`, (c) => {
    const found = findRef(c);
    if (found instanceof Response) return found;
    const { key } = found;
    return streamSSE(c, async (stream) => {
      let queued = 0;
      let chain: Promise<unknown> = Promise.resolve();
      let finish!: () => void;
      const done = new Promise<void>((resolve) => (finish = resolve));
      const send = (data: string) => {
        if (stream.aborted || stream.closed) return;
        if (queued >= MAX_QUEUED_MESSAGES) {
          finish(); // too slow: drop it; EventSource reconnects and the page reloads the session
          return;
        }
        queued++;
        chain = chain.then(() => stream.writeSSE({ data })).catch(finish).finally(() => queued--);
      };
      stream.onAbort(finish);
      streams.add(finish);
      const unsubscribe = hub.listen(key, send);
      const ping = setInterval(() => send(JSON.stringify({ type: 'ping' })), PING_MS);
      send(JSON.stringify({ type: 'hello', running: hub.isRunning(key) }));
      try {
        await done;
      } finally {
        clearInterval(ping);
        unsubscribe();
        streams.delete(finish);
      }
    });
  });

  app.post(`${SESSION}/messages`, async (c) => {
    const found = await findSession(c);
    if (found instanceof Response) return found;
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    if (typeof body.text !== 'string' || body.text.trim() === '') return c.json({ error: 'Send {"text": "<your message>"}.' }, 400);
    return startRun(c, found, createUserContent(body.text));
  });

  app.post(`${SESSION}/confirmations`, async (c) => {
    const found = await findSession(c);
    if (found instanceof Response) return found;
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    if (typeof body.callId !== 'string' || typeof body.confirmed !== 'boolean')
      return c.json({ error: 'Send {"callId": "<the confirmation request id>", "confirmed": true|false, "payload"?: …}.' }, 400);
    const problem = valueProblem(body.payload, 'payload');
    if (problem) return c.json({ error: problem }, 400);
    const request = (await pendingCalls(found.session, found.session.events, found.target.confirmationSecret)).confirmations.find((entry) => entry.call.id === body.callId);
    if (!request) return c.json({ error: `No confirmation "${clipString(body.callId, 200)}" waits in this session (answered already?).` }, 409);
    const decision = body.payload === undefined ? { confirmed: body.confirmed } : { confirmed: body.confirmed, payload: body.payload };
    return startRun(c, found, createConfirmationReply(request, decision));
  });

  app.post(`${SESSION}/credentials`, async (c) => {
    const found = await findSession(c);
    if (found instanceof Response) return found;
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const uri = body.authResponseUri;
    if (typeof body.callId !== 'string' || typeof uri !== 'string' || uri === '' || uri.length > 8192 || !URL.canParse(uri))
      return c.json({ error: 'Send {"callId": "<the credential request id>", "authResponseUri": "<the URL the provider sent you back to>"}.' }, 400);
    const request = (await pendingCalls(found.session, found.session.events, found.target.confirmationSecret)).credentials.find((entry) => entry.requestCall.id === body.callId);
    if (!request) return c.json({ error: `No consent "${clipString(body.callId, 200)}" waits in this session (answered already?).` }, 409);
    return startRun(c, found, credentialReply(request, uri));
  });

  app.post(`${SESSION}/responses`, async (c) => {
    const found = await findSession(c);
    if (found instanceof Response) return found;
    const body = await jsonBody(c);
    if (body instanceof Response) return body;
    const response = body.response;
    if (typeof body.callId !== 'string' || !response || typeof response !== 'object' || Array.isArray(response))
      return c.json({ error: 'Send {"callId": "<the long-running call id>", "response": {…}} (the response is a JSON object).' }, 400);
    const problem = valueProblem(response, 'response');
    if (problem) return c.json({ error: problem }, 400);
    const pending = (await pendingCalls(found.session, found.session.events, found.target.confirmationSecret)).longRunning.find((entry) => entry.call.id === body.callId);
    if (!pending) return c.json({ error: `No long-running call "${clipString(body.callId, 200)}" waits in this session.` }, 409);
    const { id, name } = pending.call;
    return startRun(c, found, createUserContent([{ functionResponse: { id, name, response: response as Record<string, unknown> } }]));
  });

  app.notFound((c) => c.json({ error: 'Not found.' }, 404));
  app.onError((error, c) => {
    logger.warn(`adkit dev UI: ${c.req.method} ${c.req.path} failed: ${errorMessage(error)}`);
    return c.json({ error: clipString(errorMessage(error), 2_000) }, 500);
  });

  /** Starts the run in the background; its events reach the pages over their streams. */
  function startRun(c: Context, found: { target: DevUiTarget; ref: SessionRef; key: string }, newMessage: Content): Response {
    const { target, ref, key } = found;
    const controller = hub.claim(key);
    if (!controller) return c.json({ error: 'A run is going on in this session; wait for it to end.' }, 409);
    hub.publish(key, { type: 'run', phase: 'started' });
    const startedAt = Date.now();
    void (async () => {
      let invocationId: string | undefined;
      let failure: string | undefined;
      try {
        for await (const event of target.runner.runAsync({
          userId: ref.userId,
          sessionId: ref.sessionId,
          newMessage,
          runConfig: target.runConfig,
          signal: controller.signal,
          ...(options.context ? { context: options.context } : {}),
        })) {
          if (invocationId === undefined) {
            invocationId = event.invocationId;
            await publishUserEvents(target, ref, key, startedAt);
          }
          hub.publish(key, { type: 'event', event: displayEvent(event) });
        }
      } catch (error) {
        failure = clipString(errorMessage(error), 2_000);
        logger.warn(`adkit dev UI: the run on session "${ref.sessionId}" failed: ${failure}`);
      } finally {
        if (invocationId) target.recorder?.runEnded(ref, invocationId, performance.timeOrigin + performance.now());
        hub.release(key, controller);
        hub.publish(key, { type: 'run', phase: 'ended', ...(failure !== undefined ? { error: failure } : {}) });
      }
    })();
    return c.json({ started: true }, 202);
  }

  /** The run saves the user's message without yielding it: read it back and send it to the pages. */
  async function publishUserEvents(target: DevUiTarget, ref: SessionRef, key: string, since: number): Promise<void> {
    try {
      const session = await target.runner.sessionService.getSession({ ...ref, afterTimestamp: since });
      for (const event of session?.events ?? []) if (event.author === 'user') hub.publish(key, { type: 'event', event: displayEvent(event) });
    } catch (error) {
      logger.warn(`adkit dev UI: reading the user's message back failed: ${errorMessage(error)}`);
    }
  }

  function findTarget(c: Context): { target: DevUiTarget; userId: string } | Response {
    const target = targets.get(c.req.param('app') ?? '');
    if (!target) return c.json({ error: `No agent app "${clipString(c.req.param('app') ?? '', 200)}".` }, 404);
    const userId = c.req.param('user') ?? '';
    if (!ID.test(userId)) return c.json({ error: 'A user id is 1 to 512 characters, without control characters.' }, 400);
    return { target, userId };
  }

  function findRef(c: Context): { target: DevUiTarget; ref: SessionRef; key: string } | Response {
    const found = findTarget(c);
    if (found instanceof Response) return found;
    const sessionId = c.req.param('session') ?? '';
    if (!ID.test(sessionId)) return c.json({ error: 'A session id is 1 to 512 characters, without control characters.' }, 400);
    const ref = { appName: found.target.appName, userId: found.userId, sessionId };
    return { target: found.target, ref, key: JSON.stringify([ref.appName, ref.userId, ref.sessionId]) };
  }

  async function findSession(c: Context) {
    const found = findRef(c);
    if (found instanceof Response) return found;
    const session = await found.target.runner.sessionService.getSession(found.ref);
    if (!session) return c.json({ error: `No session "${clipString(found.ref.sessionId, 200)}" for this user.` }, 404);
    return { ...found, session };
  }

  return { app, closeStreams: () => [...streams].forEach((finish) => finish()) };
}

async function jsonBody(c: Context): Promise<Record<string, unknown> | Response> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return c.json({ error: 'The body is not valid JSON.' }, 400);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return c.json({ error: 'The body must be a JSON object.' }, 400);
  return body as Record<string, unknown>;
}

/**
 * Why a value from the page cannot go into the session, or `undefined`: nesting deeper than the
 * flow accepts (`MAX_VALUE_DEPTH`) would be stored and then break every later request of the session.
 */
function valueProblem(value: unknown, what: string): string | undefined {
  try {
    toJsonValue(value);
    return undefined;
  } catch (error) {
    return `The ${what} cannot be sent: ${clipString(errorMessage(error), 300)}.`;
  }
}

// serveDevUi over real HTTP on 127.0.0.1, as an attacker would try it: no token or a wrong one
// (of other lengths) when bound beyond loopback, a foreign Host header (DNS rebinding), a
// cross-site form post (text/plain, a foreign Origin), a 50 MB body, bodies that are not JSON
// objects, ids with control characters, `__proto__` keys and a response nested 10,000 deep sent
// to a long-running call, a second run on a busy session, answers to calls that do not wait,
// artifact names with `..`, event streams cut by the client, and close() in the middle of a run.
import { request as httpRequest } from 'node:http';
import { InMemoryRunner, Runner, InMemorySessionService, isAdkitError } from '@adkit/flow';
import { afterEach, describe, expect, it } from 'vitest';
import { devUiPlugin, serveDevUi, type DevUiServer, type ServeDevUiOptions } from '../src/index.js';
import { devAgent } from './devAgent.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so Host, Origin and content type are exactly what the test says. */
function raw(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const servers: DevUiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: Partial<ServeDevUiOptions> = {}): Promise<DevUiServer> {
  const server = await serveDevUi({ ...(options.runner ? {} : { agents: [devAgent()] }), port: 0, logger: { warn: () => {}, error: () => {} }, ...options });
  servers.push(server);
  return server;
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function newSession(server: DevUiServer, headers: Record<string, string> = {}): Promise<string> {
  const reply = await raw(server.port, '/api/apps/assistant/users/u/sessions', json({}, headers));
  expect(reply.status).toBe(201);
  return (JSON.parse(reply.body) as { id: string }).id;
}

async function view(server: DevUiServer, session: string): Promise<Record<string, any>> {
  const reply = await raw(server.port, `/api/apps/assistant/users/u/sessions/${session}`);
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body) as Record<string, any>;
}

async function settled(server: DevUiServer, session: string): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const current = await view(server, session);
    if (!current.running) return current;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the run did not end');
}

describe('serveDevUi: access', () => {
  it('listens on 127.0.0.1 with no token by default, and serves the page with a strict policy', async () => {
    const server = await serve();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.token).toBeUndefined();
    const page = await raw(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).toContain('<script src="assets/page.js"></script>');
    expect((await raw(server.port, '/assets/page.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('refuses a Host header that is not this loopback server (DNS rebinding)', async () => {
    const server = await serve();
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1.evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`]) {
      const reply = await raw(server.port, '/api/apps', { headers: { host } });
      expect([host, reply.status, reply.body]).toEqual([host, 403, 'This dev UI answers only to 127.0.0.1, localhost and [::1].']);
    }
    expect((await raw(server.port, '/api/apps', { headers: { host: `localhost:${server.port}` } })).status).toBe(200);
  });

  it('requires a random token when bound beyond loopback; wrong tokens of any length are refused', async () => {
    const server = await serve({ host: '0.0.0.0' });
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.url).toBe(`http://0.0.0.0:${server.port}/?token=${server.token}`);
    const token = server.token!;
    for (const wrong of ['', 'x', token.slice(1), `${token}0`, token.toLowerCase()]) {
      expect((await raw(server.port, `/api/apps?token=${encodeURIComponent(wrong)}`)).status).toBe(401);
      expect((await raw(server.port, '/', { headers: { 'x-adkit-dev-ui-token': wrong } })).status).toBe(401);
    }
    expect((await raw(server.port, '/api/apps')).body).toBe('This dev UI needs its token: open the URL serveDevUi printed (it ends in ?token=…).');
    expect((await raw(server.port, `/?token=${token}`)).status).toBe(200);
    expect((await raw(server.port, '/api/apps', { headers: { 'x-adkit-dev-ui-token': token, host: 'anything.example' } })).status).toBe(200);
    expect((await raw(server.port, '/assets/page.css')).status).toBe(200); // the static assets hold nothing secret
  });

  it('takes a token of your own, on loopback too; refuses one shorter than 16 characters', async () => {
    const server = await serve({ token: 'a-long-enough-token' });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=a-long-enough-token`);
    expect((await raw(server.port, '/api/apps')).status).toBe(401);
    expect((await raw(server.port, '/api/apps?token=a-long-enough-token')).status).toBe(200);
    await expect(serveDevUi({ agents: [devAgent()], port: 0, token: 'short' })).rejects.toThrow(
      'serveDevUi: token must be a string of at least 16 characters; leave it out to get a random one.',
    );
  });

  it('refuses writes that a page of another site could send: a form\'s text/plain, a foreign Origin', async () => {
    const server = await serve();
    const form = await raw(server.port, '/api/apps/assistant/users/u/sessions', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect([form.status, JSON.parse(form.body)]).toEqual([415, { error: 'Send JSON (content-type: application/json).' }]);
    const foreign = await raw(server.port, '/api/apps/assistant/users/u/sessions', json({}, { origin: 'http://evil.example' }));
    expect([foreign.status, JSON.parse(foreign.body)]).toEqual([403, { error: 'Requests from other sites are refused.' }]);
    expect((await raw(server.port, '/api/apps/assistant/users/u/sessions', json({}, { origin: `http://127.0.0.1:${server.port}` }))).status).toBe(201);
  });
});

describe('serveDevUi: the API', () => {
  it('refuses a 50 MB message with 413, and keeps serving', async () => {
    const server = await serve();
    const session = await newSession(server);
    const big = await raw(server.port, `/api/apps/assistant/users/u/sessions/${session}/messages`, json({ text: 'x'.repeat(50 * 1024 * 1024) })).catch(
      (error: NodeJS.ErrnoException) => ({ status: error.code, body: '' }),
    );
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(big.status);
    expect((await view(server, session)).events).toEqual([]);
  });

  it('answers bad requests with what to send instead', async () => {
    const server = await serve();
    const session = await newSession(server);
    const base = `/api/apps/assistant/users/u/sessions/${session}`;
    const cases: [string, ReturnType<typeof json> | { method: string; headers: Record<string, string>; body: string }, number, string][] = [
      [`${base}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text": ' }, 400, 'The body is not valid JSON.'],
      [`${base}/messages`, json(['hi']), 400, 'The body must be a JSON object.'],
      [`${base}/messages`, json({ text: '   ' }), 400, 'Send {"text": "<your message>"}.'],
      [`${base}/confirmations`, json({ callId: 1 }), 400, 'Send {"callId": "<the confirmation request id>", "confirmed": true|false, "payload"?: …}.'],
      [`${base}/confirmations`, json({ callId: 'nope', confirmed: true }), 409, 'No confirmation "nope" waits in this session (answered already?).'],
      [`${base}/responses`, json({ callId: 'nope', response: [] }), 400, 'Send {"callId": "<the long-running call id>", "response": {…}} (the response is a JSON object).'],
      [`${base}/responses`, json({ callId: 'nope', response: {} }), 409, 'No long-running call "nope" waits in this session.'],
      ['/api/apps/nobody/users/u/sessions', json({}), 404, 'No agent app "nobody".'],
      ['/api/apps/assistant/users/u/sessions/missing/messages', json({ text: 'hi' }), 404, 'No session "missing" for this user.'],
      ['/api/apps/assistant/users/u%01x/sessions', json({}), 400, 'A user id is 1 to 512 characters, without control characters.'],
      [`/api/apps/assistant/users/u/sessions/${'s'.repeat(600)}`, { method: 'GET', headers: {}, body: '' }, 400, 'A session id is 1 to 512 characters, without control characters.'],
      [`${base}/artifact?name=..%2Fescape`, { method: 'GET', headers: {}, body: '' }, 400, ''],
      [`${base}/artifact?name=note.txt&version=-1`, { method: 'GET', headers: {}, body: '' }, 400, 'Give the artifact as ?name=<filename>[&version=<n>].'],
      [`${base}/artifact?name=none.txt`, { method: 'GET', headers: {}, body: '' }, 404, 'No artifact "none.txt".'],
    ];
    for (const [path, options, status, error] of cases) {
      const reply = await raw(server.port, path, options);
      expect([path, reply.status]).toEqual([path, status]);
      if (error) expect(JSON.parse(reply.body)).toEqual({ error });
      else expect(JSON.parse(reply.body).error).toMatch(/\S/);
    }
  });

  it('runs one turn at a time per session: a second message while one runs gets 409', async () => {
    const server = await serve();
    const session = await newSession(server);
    const path = `/api/apps/assistant/users/u/sessions/${session}/messages`;
    expect((await raw(server.port, path, json({ text: 'compare trains and planes' }))).status).toBe(202);
    const busy = await raw(server.port, path, json({ text: 'hello' }));
    expect([busy.status, JSON.parse(busy.body)]).toEqual([409, { error: 'A run is going on in this session; wait for it to end.' }]);
    const done = await settled(server, session);
    expect(done.events.at(-1).content.parts[0].text).toContain('Done: slow_lookup');
    expect(done.timeline.turns[0].spans.filter((s: { kind: string }) => s.kind === 'tool')).toHaveLength(2);
  });

  it('passes a long-running answer with __proto__ keys through as data, and survives one nested 10,000 deep', async () => {
    const server = await serve();
    const session = await newSession(server);
    const base = `/api/apps/assistant/users/u/sessions/${session}`;
    await raw(server.port, `${base}/messages`, json({ text: 'reimburse 480' }));
    const [pending] = (await settled(server, session)).pending.longRunning;
    let deep = '"bottom"';
    for (let i = 0; i < 10_000; i++) deep = `{"d":${deep}}`;
    // Stored, it would break every later request of the session: refused before it gets there.
    const nested = await raw(server.port, `${base}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"callId":"${pending.callId}","response":${deep}}` });
    expect(nested.status).toBe(400);
    expect(JSON.parse(nested.body).error).toMatch(/^The response cannot be sent: \$[.d]+… nests deeper than 100 levels; flatten the data\.$/);
    const body = `{"callId":"${pending.callId}","response":{"__proto__":{"polluted":true},"status":"approved"}}`;
    expect((await raw(server.port, `${base}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(202);
    const after = await settled(server, session);
    expect(after.pending.longRunning).toEqual([]);
    const answer = after.events.find((e: any) => e.author === 'user' && e.content.parts[0].functionResponse?.id === pending.callId);
    expect(Object.keys(answer.content.parts[0].functionResponse.response)).toEqual(['__proto__', 'status']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('serves artifacts sandboxed: text and images to view, HTML only as a download', async () => {
    const server = await serve();
    const session = await newSession(server);
    const base = `/api/apps/assistant/users/u/sessions/${session}`;
    await raw(server.port, `${base}/messages`, json({ text: 'save a note' }));
    const done = await settled(server, session);
    expect(done.artifacts.items.map((item: { name: string }) => item.name)).toEqual(['note.txt', 'page.html', 'pixel.png']);
    const text = await raw(server.port, `${base}/artifact?name=note.txt`);
    expect([text.status, text.headers['content-type'], text.headers['content-disposition'], text.body]).toEqual([200, 'text/plain; charset=utf-8', undefined, 'trains are greener']);
    const image = await raw(server.port, `${base}/artifact?name=pixel.png&version=0`);
    expect([image.headers['content-type'], image.headers['content-security-policy']]).toEqual(['image/png', "sandbox; default-src 'none'"]);
    const html = await raw(server.port, `${base}/artifact?name=page.html`);
    expect([html.headers['content-type'], html.headers['content-disposition'], html.headers['x-content-type-options']]).toEqual([
      'application/octet-stream',
      'attachment; filename="page.html"; filename*=UTF-8\'\'page.html',
      'nosniff',
    ]);
    expect((await raw(server.port, `${base}/artifact?name=note.txt&download=1`)).headers['content-disposition']).toBe(
      'attachment; filename="note.txt"; filename*=UTF-8\'\'note.txt',
    );
  });

  it('streams a session\'s events to every open page, forgets pages that hang up, and ends streams on close', async () => {
    const server = await serve();
    const session = await newSession(server);
    const base = `/api/apps/assistant/users/u/sessions/${session}`;
    const open = () =>
      new Promise<{ lines: string[]; ended: Promise<void>; hangUp(): void }>((resolve, reject) => {
        const lines: string[] = [];
        const req = httpRequest({ host: '127.0.0.1', port: server.port, path: `${base}/stream` }, (res) => {
          expect(res.headers['content-type']).toBe('text/event-stream');
          const ended = new Promise<void>((done) => res.on('close', done));
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => lines.push(...chunk.split('\n').filter((line) => line.startsWith('data: '))));
          res.on('error', () => {});
          resolve({ lines, ended, hangUp: () => req.destroy() });
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
        req.end();
      });
    const staying = await open();
    const leaving = await Promise.all([open(), open(), open()]);
    for (const page of leaving) page.hangUp();
    await Promise.all(leaving.map((page) => page.ended));
    await raw(server.port, `${base}/messages`, json({ text: 'weather in Paris?' }));
    await settled(server, session);
    const messages = staying.lines.map((line) => JSON.parse(line.slice(6)) as { type: string; event?: { author: string; partial?: boolean } });
    expect(messages[0]).toEqual({ type: 'hello', running: false });
    const authors = messages.filter((m) => m.type === 'event').map((m) => m.event!.author);
    expect(authors).toEqual(['user', 'assistant', 'assistant', 'assistant']); // the user's message, read back once saved, first
    expect(messages.filter((m) => m.type === 'run').map((m) => (m as { phase?: string }).phase)).toEqual(['started', 'ended']);
    const started = Date.now();
    await servers.pop()!.close();
    await staying.ended;
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('close() cancels a run in the middle and closes the runners it made', async () => {
    const server = await serve();
    const session = await newSession(server);
    expect((await raw(server.port, `/api/apps/assistant/users/u/sessions/${session}/messages`, json({ text: 'compare' }))).status).toBe(202);
    const started = Date.now();
    await servers.pop()!.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(raw(server.port, '/api/apps')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('serveDevUi: configuration', () => {
  it('serves your runner; without devUiPlugin it warns once and shows no timeline, with it the timeline works', async () => {
    const warnings: string[] = [];
    const plain = new InMemoryRunner({ agent: devAgent('plain'), appName: 'plain' });
    const recorded = new InMemoryRunner({ agent: devAgent('recorded'), appName: 'recorded', plugins: [devUiPlugin()] });
    const server = await serve({ runner: [plain, recorded], logger: { warn: (message: string) => warnings.push(message), error: () => {} } });
    expect(warnings).toEqual([
      'adkit dev UI: runner "plain" has no devUiPlugin(); add it to the runner\'s plugins to see the timeline and the model\'s last request.',
    ]);
    const apps = JSON.parse((await raw(server.port, '/api/apps')).body) as { apps: { name: string; recording: boolean }[] };
    expect(apps.apps.map((app) => [app.name, app.recording])).toEqual([['plain', false], ['recorded', true]]);
    for (const app of ['plain', 'recorded']) {
      const id = JSON.parse((await raw(server.port, `/api/apps/${app}/users/u/sessions`, json({}))).body).id as string;
      await raw(server.port, `/api/apps/${app}/users/u/sessions/${id}/messages`, json({ text: 'weather?' }));
      let current: Record<string, any> = {};
      for (let i = 0; i < 200 && (current.running ?? true); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        current = JSON.parse((await raw(server.port, `/api/apps/${app}/users/u/sessions/${id}`)).body);
      }
      expect([app, current.recording, current.timeline.turns.length, current.request === null]).toEqual(
        app === 'plain' ? ['plain', false, 0, true] : ['recorded', true, 1, false],
      );
    }
    await server.close();
    expect(await plain.sessionService.listSessions({ appName: 'plain' })).toHaveLength(1); // your runner stays yours
  });

  it('lists confirmations verified with the runner\'s confirmationSecret (what approving resumes), and approving one runs it', async () => {
    const service = new InMemorySessionService();
    const keyed = new Runner({ appName: 'assistant', agent: devAgent(), sessionService: service, confirmationSecret: 'server-secret-1234', plugins: [devUiPlugin()] });
    const ask = async (server: DevUiServer) => {
      const id = await newSession(server);
      await raw(server.port, `/api/apps/assistant/users/u/sessions/${id}/messages`, json({ text: 'book Rome' }));
      return { id, pending: (await settled(server, id)).pending.confirmations as { callId: string }[] };
    };
    // Without the secret, a request the runner keyed does not verify: it is not offered.
    const blind = await serve({ runner: keyed });
    const unverified = await ask(blind);
    expect(unverified.pending).toEqual([]);
    expect((await raw(blind.port, `/api/apps/assistant/users/u/sessions/${unverified.id}/confirmations`, json({ callId: 'x', confirmed: true }))).status).toBe(409);
    await blind.close();
    const server = await serve({ runner: keyed, confirmationSecret: 'server-secret-1234' });
    const { id, pending } = await ask(server);
    expect(pending).toHaveLength(1);
    expect((await raw(server.port, `/api/apps/assistant/users/u/sessions/${id}/confirmations`, json({ callId: pending[0]!.callId, confirmed: true }))).status).toBe(202);
    const after = await settled(server, id);
    expect(after.pending.confirmations).toEqual([]);
    expect(JSON.stringify(after.events)).toContain('BK-ROME');
  });

  it('refuses options that cannot work, naming the fix', async () => {
    const agent = devAgent();
    const runner = new Runner({ appName: 'x', agent, sessionService: new InMemorySessionService() });
    const cases: [Partial<ServeDevUiOptions>, string][] = [
      [{}, 'serveDevUi: pass either agents (agents to serve on runners it makes) or runner (your runner, or a list), not both and not neither.'],
      [{ agents: [agent], runner }, 'serveDevUi: pass either agents (agents to serve on runners it makes) or runner (your runner, or a list), not both and not neither.'],
      [{ agents: [] }, 'serveDevUi: agents is empty; pass at least one agent.'],
      [{ agents: [agent, devAgent()] }, 'serveDevUi: two agents or runners share the app name "assistant"; give each a unique name.'],
      [{ agents: [{ name: 'fake' } as never] }, 'serveDevUi: agents must be agents (LlmAgent, SequentialAgent, …), got an object with keys name.'],
      [{ runner: [runner, runner] }, 'serveDevUi: two agents or runners share the app name "x"; give each a unique name.'],
      [{ runner, sessionService: new InMemorySessionService() }, 'serveDevUi: plugins, sessionService, artifactService and memoryService go with agents; with runner, give them to your Runner.'],
      [{ agents: [agent], port: 70_000 }, 'serveDevUi: port must be an integer from 0 to 65535, got 70000.'],
      [{ agents: [agent], maxBodyBytes: 10 }, 'serveDevUi: maxBodyBytes must be an integer of at least 1024.'],
    ];
    for (const [options, message] of cases) {
      let error: unknown;
      try {
        await serveDevUi({ port: 0, ...options } as ServeDevUiOptions);
      } catch (caught) {
        error = caught;
      }
      expect(isAdkitError(error) && [error.code, error.message]).toEqual(['INVALID_CONFIG', message]);
    }
  });

  it('says which port is taken', async () => {
    const first = await serve();
    let error: unknown;
    try {
      await serveDevUi({ agents: [devAgent()], port: first.port });
    } catch (caught) {
      error = caught;
    }
    expect(isAdkitError(error) && error.code).toBe('DEV_UI_LISTEN');
    expect((error as Error).message).toMatch(new RegExp(`^serveDevUi: cannot listen on 127\\.0\\.0\\.1:${first.port}: .*EADDRINUSE.*; pick another port \\(0 picks a free one\\)\\.$`));
  });
});

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpointOf, fixtureEntry, fixtureText, splitSseEvents } from './fixtures.js';

/** Replays a recorded fixture (a file name from `fixtures/api/index.json`). */
export interface FixtureStep {
  fixture: string;
  /** Write only this many SSE events, then hold the connection open until the client leaves. */
  pauseAfterEvents?: number;
  /** Write only this many SSE events, then destroy the socket: a connection cut mid-stream. */
  destroyAfterEvents?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** Answers with a response written by the test (for statuses no fixture recorded). */
export interface ResponseStep {
  /** The path suffix the request must end with, e.g. `/chat/completions` or `:generateContent`. */
  endpoint: string;
  status?: number;
  /** A JSON body. */
  json?: unknown;
  /** SSE `data:` payloads (objects are JSON-encoded), sent as `text/event-stream`. */
  sse?: unknown[];
  /**
   * A body sent as is: an HTML page, or an SSE text (a truncated copy of a fixture). With a
   * `text/event-stream` content type it is written event by event, like a fixture.
   */
  body?: string;
  /** The content type of `body` (default `text/plain`). */
  contentType?: string;
  headers?: Record<string, string>;
  pauseAfterEvents?: number;
  destroyAfterEvents?: number;
}

/** One scripted answer: a fixture name, a fixture step, or a hand-written response. */
export type ReplayStep = string | FixtureStep | ResponseStep;

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The query string without `?`, or `''`. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (the raw text when it is not JSON, `undefined` when empty). */
  body: unknown;
  /** What answered it: the fixture name, `status <n>` for a written response, or `unexpected`. */
  servedBy: string;
}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `<url>/v1`, the `baseURL` for the openai SDK. */
  readonly openaiBaseURL: string;
  /** `<url>`, the `httpOptions.baseUrl` for @google/genai. */
  readonly geminiBaseUrl: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Requests that did not match the script (each answered with a 500 naming what was expected). */
  readonly unexpected: RecordedRequest[];
  /** Appends steps to the script. */
  enqueue(...steps: ReplayStep[]): void;
  /** How many scripted steps have not been served yet. */
  remaining(): number;
  /** How many streams held by `pauseAfterEvents` are still open (the client has not left). */
  heldStreams(): number;
  /** Resolves once exactly `count` streams are held open; rejects after `timeoutMs` (default 2,000) saying how many are. */
  waitForHeldStreams(count: number, timeoutMs?: number): Promise<void>;
  /** Throws unless every step was served and nothing unexpected arrived. */
  assertDone(): void;
  close(): Promise<void>;
}

/** Options of `startReplayServer`. */
export interface ReplayServerOptions {
  /** The steps to serve, in order (more can be added with `enqueue`). */
  script?: ReplayStep[];
  /** Milliseconds between the TCP writes of an SSE body (default 1; 0 writes without waiting). */
  writeDelayMs?: number;
}

interface PreparedStep {
  label: string;
  endpoint: string;
  status: number;
  contentType: string;
  headers: Record<string, string>;
  /** For SSE, one entry per event; otherwise one entry. */
  chunks: string[];
  sse: boolean;
  pauseAfterEvents?: number;
  destroyAfterEvents?: number;
}

function endings(step: Pick<FixtureStep, 'pauseAfterEvents' | 'destroyAfterEvents'>): Pick<PreparedStep, 'pauseAfterEvents' | 'destroyAfterEvents'> {
  return {
    ...(step.pauseAfterEvents !== undefined ? { pauseAfterEvents: step.pauseAfterEvents } : {}),
    ...(step.destroyAfterEvents !== undefined ? { destroyAfterEvents: step.destroyAfterEvents } : {}),
  };
}

function prepare(step: ReplayStep): PreparedStep {
  if (typeof step === 'string') return prepare({ fixture: step });
  if ('fixture' in step) {
    const entry = fixtureEntry(step.fixture);
    const text = fixtureText(step.fixture);
    const sse = step.fixture.endsWith('.sse');
    return {
      label: step.fixture,
      endpoint: endpointOf(entry),
      status: entry.status,
      contentType: entry.contentType,
      headers: step.headers ?? {},
      chunks: sse ? splitSseEvents(text) : [text],
      sse,
      ...endings(step),
    };
  }
  const status = step.status ?? 200;
  const base = { label: `status ${status}`, endpoint: step.endpoint, status, headers: step.headers ?? {}, ...endings(step) };
  if (step.body !== undefined) {
    const contentType = step.contentType ?? 'text/plain';
    const sse = contentType.startsWith('text/event-stream');
    return { ...base, contentType, chunks: sse ? splitSseEvents(step.body) : [step.body], sse };
  }
  if (step.sse !== undefined) {
    const chunks = step.sse.map((payload) => `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
    return { ...base, contentType: 'text/event-stream', chunks, sse: true };
  }
  return { ...base, contentType: 'application/json', chunks: [JSON.stringify(step.json ?? {})], sse: false };
}

/**
 * A step serving a copy of a recorded SSE fixture cut after its first `events` events, as a stream
 * that ends early would (the fixture itself is left as it is).
 */
export function truncatedFixture(fixture: string, events: number): ResponseStep {
  const entry = fixtureEntry(fixture);
  const body = splitSseEvents(fixtureText(fixture)).slice(0, events).join('');
  return { endpoint: endpointOf(entry), status: entry.status, body, contentType: entry.contentType };
}

function describe(step: PreparedStep): string {
  return `"${step.label}" (POST …${step.endpoint})`;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts a local HTTP server on 127.0.0.1 (random port) that answers each request with the next
 * scripted step, in order. A request must be a POST whose path ends with the step's endpoint; any
 * other request (or one past the end of the script) gets a 500 whose message names what was
 * expected, and is listed in `unexpected`. SSE bodies are written event by event, each event in
 * two TCP writes, so clients must reassemble events across chunks.
 */
export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const script: PreparedStep[] = (options.script ?? []).map(prepare);
  const writeDelayMs = options.writeDelayMs ?? 1;
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  const held = new Set<ServerResponse>();
  let closing = false;

  async function writeSse(res: ServerResponse, step: PreparedStep): Promise<void> {
    const limit = step.destroyAfterEvents ?? step.pauseAfterEvents ?? step.chunks.length;
    let clientLeft = false;
    res.on('close', () => {
      clientLeft = true;
      held.delete(res);
    });
    for (const event of step.chunks.slice(0, limit)) {
      const bytes = Buffer.from(event, 'utf8');
      const middle = Math.max(1, Math.floor(bytes.length / 2));
      for (const piece of [bytes.subarray(0, middle), bytes.subarray(middle)]) {
        if (res.destroyed || piece.length === 0) continue;
        res.write(piece);
        if (writeDelayMs > 0) await delay(writeDelayMs);
      }
    }
    if (step.destroyAfterEvents !== undefined) {
      // Let the written events reach the client, then cut the connection without ending the body.
      res.flushHeaders();
      await delay(Math.max(writeDelayMs, 5));
      res.socket?.destroy();
      return;
    }
    if (step.pauseAfterEvents !== undefined) {
      // Hold the stream open: the client is expected to abort; `close()` ends it otherwise.
      if (!clientLeft) held.add(res);
      return;
    }
    res.end();
  }

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const [path = '', query = ''] = (req.url ?? '').split('?');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path,
        query,
        headers: { ...req.headers },
        body,
        servedBy: 'unexpected',
      };
      requests.push(recorded);
      const step = script[0];
      let problem: string | undefined;
      if (!step) problem = 'the script is empty (every scripted step was already served)';
      else if (req.method !== 'POST' || !path.endsWith(step.endpoint)) problem = `expected ${describe(step)}`;
      if (problem || !step) {
        unexpected.push(recorded);
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 500, status: 'REPLAY_MISMATCH', message: `replay server: unexpected ${req.method} ${req.url}; ${problem}` },
          }),
        );
        return;
      }
      script.shift();
      recorded.servedBy = step.label;
      res.socket?.setNoDelay(true);
      res.writeHead(step.status, { 'content-type': step.contentType, ...step.headers });
      if (step.sse && step.status < 400) await writeSse(res, step);
      else res.end(step.chunks.join(''));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `replay server failed: ${String(error)}` } }));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseURL: `${url}/v1`,
    geminiBaseUrl: url,
    requests,
    unexpected,
    enqueue(...steps) {
      script.push(...steps.map(prepare));
    },
    remaining: () => script.length,
    heldStreams: () => held.size,
    async waitForHeldStreams(count, timeoutMs = 2000) {
      const start = Date.now();
      while (held.size !== count) {
        if (Date.now() - start > timeoutMs) {
          throw new Error(`replay server: expected ${count} held streams within ${timeoutMs} ms, ${held.size} are held`);
        }
        await delay(5);
      }
    },
    assertDone() {
      const problems: string[] = [];
      for (const r of unexpected) problems.push(`unexpected request ${r.method} ${r.path}`);
      if (script.length > 0) problems.push(`steps never requested: ${script.map(describe).join(', ')}`);
      if (problems.length > 0) throw new Error(`replay server: ${problems.join('; ')}`);
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

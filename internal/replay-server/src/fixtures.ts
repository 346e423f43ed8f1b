import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The folder holding the recorded API traffic (`index.json`, responses, `.request.json` files). */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/api/', import.meta.url));

/** One entry of `fixtures/api/index.json`: a recorded response and how it was requested. */
export interface FixtureEntry {
  file: string;
  requestFile?: string;
  api: string;
  stream: boolean;
  method: string;
  path: string;
  query?: string;
  status: number;
  contentType: string;
  model?: string;
  features?: string[];
}

/** A recorded request: method, URL and the parsed JSON body (js-genai recordings add headers). */
export interface FixtureRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
}

let index: Map<string, FixtureEntry> | undefined;

/** Every recorded fixture, by file name. */
export function fixtureIndex(): ReadonlyMap<string, FixtureEntry> {
  if (!index) {
    const entries = JSON.parse(readFileSync(`${FIXTURES_DIR}index.json`, 'utf8')) as FixtureEntry[];
    index = new Map(entries.map((entry) => [entry.file, entry]));
  }
  return index;
}

/** The index entry of one fixture; throws naming the known files when there is none. */
export function fixtureEntry(file: string): FixtureEntry {
  const entry = fixtureIndex().get(file);
  if (!entry) {
    throw new Error(
      `replay server: no fixture "${file}" in ${FIXTURES_DIR}index.json. Known: ${[...fixtureIndex().keys()].join(', ')}`,
    );
  }
  return entry;
}

/** The recorded response body of a fixture, as stored (JSON text or SSE text). */
export function fixtureText(file: string): string {
  fixtureEntry(file);
  return readFileSync(`${FIXTURES_DIR}${file}`, 'utf8');
}

/** The recorded response body of a JSON fixture, parsed. */
export function fixtureJson(file: string): unknown {
  return JSON.parse(fixtureText(file));
}

/** The recorded request of a fixture (method, url, body), from its `.request.json` file. */
export function fixtureRequest(file: string): FixtureRequest {
  const entry = fixtureEntry(file);
  if (!entry.requestFile) throw new Error(`replay server: fixture "${file}" has no recorded request`);
  return JSON.parse(readFileSync(`${FIXTURES_DIR}${entry.requestFile}`, 'utf8')) as FixtureRequest;
}

/** The recorded request body of a fixture, to compare with what an SDK sent. */
export function fixtureRequestBody(file: string): Record<string, unknown> {
  return fixtureRequest(file).body;
}

/**
 * The endpoint suffix a request for this fixture must end with: `/chat/completions`,
 * `/responses`, `:generateContent` or `:streamGenerateContent`. Matching on the suffix keeps the
 * server independent of API versions (`v1beta` vs `v1`) and of Vertex path prefixes.
 */
export function endpointOf(entry: Pick<FixtureEntry, 'path'>): string {
  const path = entry.path;
  for (const suffix of [':streamGenerateContent', ':generateContent', '/chat/completions', '/responses']) {
    if (path.includes(suffix)) return suffix;
  }
  throw new Error(`replay server: cannot tell the endpoint of path "${path}"`);
}

/** Splits an SSE body into its events, each with its trailing blank line kept. */
export function splitSseEvents(text: string): string[] {
  const events: string[] = [];
  const separator = /\r?\n\r?\n/g;
  let start = 0;
  for (let match = separator.exec(text); match; match = separator.exec(text)) {
    const end = match.index + match[0].length;
    events.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length && text.slice(start).trim()) events.push(text.slice(start));
  return events;
}

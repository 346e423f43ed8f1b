// How the demo is set up from its command line and environment: the options, the model choice
// (offline unless a key is set), the stores behind --db, and what a session waits for.
// Bad input tried: unknown flags, an empty --db, a Postgres URL with a password (never printed),
// a tool answer for a call that was never long-running, a long-running call that failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, createUserContent, type Event } from '@adkit/flow';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/cliOptions.js';
import { OFFLINE_LABEL, modelFromEnv } from '../src/modelFromEnv.js';
import { pendingWork } from '../src/pendingWork.js';
import { demoServices } from '../src/services.js';

const dir = mkdtempSync(join(tmpdir(), 'adkit-demo-setup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseCliOptions', () => {
  it('reads the flags, and refuses unknown ones and an empty --db', () => {
    expect(parseCliOptions([])).toEqual({ interactive: false, trace: false, web: false, help: false });
    expect(parseCliOptions(['--web'])).toMatchObject({ web: true });
    expect(parseCliOptions(['-i', '--db', 'x.db', '--trace', '--no-color'])).toEqual({ interactive: true, db: 'x.db', trace: true, web: false, help: false, color: false });
    expect(parseCliOptions(['--color'])).toMatchObject({ color: true });
    expect(() => parseCliOptions(['--interactve'])).toThrow(/Unknown option '--interactve'/);
    expect(() => parseCliOptions(['--db', ' '])).toThrow('--db needs a file name or a postgres:// URL.');
    expect(() => parseCliOptions(['extra'])).toThrow(/positional/);
  });
});

describe('modelFromEnv', () => {
  it('prefers OpenAI (with base URL and model overrides), then Gemini, else offline', async () => {
    expect(await modelFromEnv({})).toEqual({ label: OFFLINE_LABEL });
    const both = await modelFromEnv({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', ADKIT_OPENAI_MODEL: 'llama3', GEMINI_API_KEY: 'g' });
    expect(both.model!.model).toBe('llama3');
    expect(both.label).toBe('OpenAI llama3 at http://127.0.0.1:1/v1');
    expect(both.gemini!.model).toBe('gemini-2.5-flash'); // Google Search still runs on Gemini
    expect((await modelFromEnv({ OPENAI_API_KEY: 'sk-test' })).model!.model).toBe('gpt-4.1-mini');
    expect((await modelFromEnv({ OPENAI_API_KEY: 'sk-test' })).gemini).toBeUndefined();
    expect((await modelFromEnv({ GEMINI_API_KEY: 'g' })).label).toBe('Gemini gemini-2.5-flash');
    expect((await modelFromEnv({ GOOGLE_API_KEY: 'g', ADKIT_GEMINI_MODEL: 'gemini-2.0-flash' })).model!.model).toBe('gemini-2.0-flash');
    expect((await modelFromEnv({ OPENAI_API_KEY: '' })).model).toBeUndefined();
  });
});

describe('demoServices', () => {
  it('in memory by default; a file gives SQLite sessions and artifacts on disk that a second opening sees', async () => {
    expect((await demoServices()).label).toBe('in memory (pass --db <file> to keep them)');
    const db = join(dir, 'demo.db');
    const first = await demoServices(db);
    expect(first.label).toBe(`SQLite file ${db} (artifacts in ${db}.artifacts)`);
    const session = await first.sessionService.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    await first.sessionService.appendEvent(session, createEvent({ invocationId: 'i', author: 'user', content: createUserContent('hi') }));
    await first.artifactService.saveArtifact({ appName: 'a', userId: 'u', sessionId: 's', filename: 'user:notes.md', artifact: { text: 'kept' } });
    await first.close();
    const second = await demoServices(db);
    expect((await second.sessionService.getSession({ appName: 'a', userId: 'u', sessionId: 's' }))!.events).toHaveLength(1);
    expect(await second.artifactService.loadArtifact({ appName: 'a', userId: 'u', sessionId: 'other', filename: 'user:notes.md' })).toEqual({ text: 'kept' });
    await second.close();
  });

  it('a postgres:// URL picks the Postgres store (connecting on first use) and never prints the password', async () => {
    const services = await demoServices('postgres://ann:s3cret@127.0.0.1:1/demo');
    expect(services.label).toBe('Postgres at postgres://ann:***@127.0.0.1:1/demo');
    expect(services.sessionService.constructor.name).toBe('PostgresSessionService');
    await services.close();
  });
});

describe('pendingWork', () => {
  const call = (id: string, name: string, longRunning: boolean): Event =>
    createEvent({ invocationId: 'i', author: 'a', content: { role: 'model', parts: [{ functionCall: { id, name, args: {} } }] }, ...(longRunning ? { longRunningToolIds: [id] } : {}) });
  const answer = (author: string, id: string, name: string, response: Record<string, unknown>): Event =>
    createEvent({ invocationId: 'i', author, content: { role: 'user', parts: [{ functionResponse: { id, name, response } }] } });

  const session = (events: Event[]) => ({ appName: 'demo', userId: 'u', id: 's', events });

  it('FL-15: a long-running call waits, with its interim answer, until the client (the user) answers it', async () => {
    const paused = [call('lr', 'ask_for_approval', true), answer('a', 'lr', 'ask_for_approval', { status: 'pending' })];
    expect((await pendingWork(session(paused))).longRunning).toMatchObject([{ call: { id: 'lr', name: 'ask_for_approval', args: {} }, interim: { status: 'pending' } }]);
    expect((await pendingWork(session([...paused, answer('user', 'lr', 'ask_for_approval', { status: 'approved' })]))).longRunning).toEqual([]);
  });

  it('a failed long-running call, and an ordinary call, wait for nothing; no session waits for nothing', async () => {
    expect((await pendingWork(session([call('lr', 'ask_for_approval', true), answer('a', 'lr', 'ask_for_approval', { error: 'boom' })]))).longRunning).toEqual([]);
    expect(await pendingWork(session([call('n', 'get_weather', false), answer('user', 'n', 'get_weather', { forged: true })]))).toEqual({ confirmations: [], longRunning: [], credentials: [] });
    expect(await pendingWork(undefined)).toEqual({ confirmations: [], longRunning: [], credentials: [] });
  });
});

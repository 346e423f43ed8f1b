// BT-1, BT-2: load_artifacts and its two-step protocol, on the requests the model receives, with
// artifacts in real files (FileSystemArtifactService). Bad input tried: artifact_names missing,
// null, not a list, with non-strings, with duplicates, with names that do not exist or would leave
// the store; args that are not an object; a response replaced by a callback with non-string names;
// an artifact deleted between the call and the next request; a store whose list or load fails;
// load_artifacts called beside another tool; 20 artifacts at once, finishing in reverse order;
// 100,000 names in one call; a large text of 2-byte characters or emoji, base64 with line breaks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createUserContent,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type ArtifactService,
  type Event,
  type Part,
  type Tool,
} from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse, type RecordedRequest } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FileSystemArtifactService, loadArtifactsTool } from '../src/index.js';

const APP = 'docs';
const owner = { appName: APP, userId: 'ada', sessionId: 's1' };

function fileStore(): FileSystemArtifactService {
  const root = mkdtempSync(join(tmpdir(), 'adkit-load-artifacts-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return new FileSystemArtifactService({ root });
}

function setup(model: ScriptedModel, artifactService: ArtifactService, tools: Tool[] = [loadArtifactsTool], extra: Partial<ConstructorParameters<typeof LlmAgent>[0]> = {}) {
  const agent = new LlmAgent({ name: 'analyst', model, tools, ...extra });
  return new Runner({ appName: APP, agent, sessionService: new InMemorySessionService(), artifactService, autoCreateSession: true });
}

async function say(runner: Runner, text: string, sessionId = 's1'): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'ada', sessionId, newMessage: createUserContent(text) })) events.push(event);
  return events;
}

const systemText = (request: RecordedRequest | undefined) => (request?.config.systemInstruction?.parts ?? []).map((p) => p.text).join('');
const LIST_INSTRUCTION = (names: string[]) =>
  `You have a list of artifacts:\n  ${JSON.stringify(names)}\n\n` +
  'When the user asks questions about any of the artifacts, you should call the `load_artifacts` function to load the artifact. ' +
  'Do not generate any text other than the function call. Whenever you are asked about artifacts, you should first load it. ' +
  'You must always load an artifact to access its content, even if it has been loaded before.';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('load_artifacts (BT-1)', () => {
  it('BT-1: declares load_artifacts(artifact_names: string[]), nothing required', () => {
    expect(loadArtifactsTool.declaration()).toEqual({
      name: 'load_artifacts',
      description: 'Loads the artifacts and adds them to the session.',
      parametersJsonSchema: { type: 'object', properties: { artifact_names: { type: 'array', items: { type: 'string' } } } },
    });
  });

  it('BT-1: echoes the names it is asked for, once each, and loads nothing itself', async () => {
    const artifacts = new InMemoryArtifactService();
    const ctx = createToolContext({ artifactService: artifacts });
    await ctx.saveArtifact('a.txt', { text: 'A' });
    await ctx.saveArtifact('user:b.txt', { text: 'B' });
    expect(await loadArtifactsTool.run(ctx, { artifact_names: ['user:b.txt', 'a.txt', 'user:b.txt'] })).toEqual({ artifact_names: ['user:b.txt', 'a.txt'] });
    expect(await loadArtifactsTool.run(ctx, {})).toEqual({ artifact_names: [] });
    expect(await loadArtifactsTool.run(ctx, { artifact_names: null })).toEqual({ artifact_names: [] });
    expect(await loadArtifactsTool.run(ctx, { artifact_names: [] })).toEqual({ artifact_names: [] });
  });

  it('BT-1: bad arguments and unknown names are errors the model reads, listing what exists', async () => {
    const ctx = createToolContext();
    await ctx.saveArtifact('report.txt', { text: 'R' });
    const message = (args: unknown) => loadArtifactsTool.run(ctx, args as Record<string, unknown>).then(() => 'no error', (e: Error) => e.message);
    expect(await message('report.txt')).toBe('unexpected args type, got: string');
    expect(await message({ artifact_names: 'report.txt' })).toBe(
      'artifact_names must be a list of artifact names, got string; call load_artifacts with {"artifact_names": ["report.txt"]}.',
    );
    expect(await message({ artifact_names: ['report.txt', 7] })).toBe('invalid artifact name type at index 1: number, expected string');
    expect(await message({ artifact_names: ['reprot.txt', '../etc/passwd'] })).toBe(
      'Unknown artifacts: "reprot.txt", "../etc/passwd". Available: "report.txt". Call load_artifacts with names from this list.',
    );
    expect(await loadArtifactsTool.run(createToolContext(), { artifact_names: ['x'] }).catch((e: Error) => e.message)).toBe(
      'Unknown artifact: "x". This session has no artifacts.',
    );
  });
});

describe('hostile argument sizes (BT-1)', () => {
  it('BT-1: 100,000 names are checked in one pass, and the error lists the first 20 unknown and available names with a count', async () => {
    // A quadratic duplicate check took ~54 s for this list, freezing every run in the process.
    const ctx = createToolContext();
    for (let i = 0; i < 25; i++) await ctx.saveArtifact(`file${i}.txt`, { text: String(i) });
    const names = Array.from({ length: 100_000 }, (_, i) => `guess${i}.txt`);
    const message = await loadArtifactsTool.run(ctx, { artifact_names: [...names, 'file3.txt', 'guess0.txt'] }).then(
      () => 'no error',
      (e: Error) => e.message,
    );
    const first = (list: string[]) => list.slice(0, 20).map((n) => JSON.stringify(n)).join(', ');
    const available = Array.from({ length: 25 }, (_, i) => `file${i}.txt`).sort();
    expect(message).toBe(
      `Unknown artifacts: ${first(names)} and 99980 more. Available: ${first(available)} and 5 more. Call load_artifacts with names from this list.`,
    );
  });
});

describe('the two-step protocol (BT-2)', () => {
  it('BT-2: the names reach the model in the instruction, the content on the request after the call, and only there', async () => {
    const artifacts = fileStore();
    await artifacts.saveArtifact({ ...owner, filename: 'report.txt', artifact: { inlineData: { mimeType: 'text/plain', data: Buffer.from('Revenue: 42').toString('base64') } } });
    await artifacts.saveArtifact({ ...owner, filename: 'chart.png', artifact: { inlineData: { mimeType: 'image/png', data: PNG } } });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: ['report.txt', 'chart.png'] }, id: 'call-1' }]),
      textResponse('Revenue is 42, and the chart is one pixel.'),
      textResponse('Nothing new.'),
    ]);
    const runner = setup(model, artifacts);

    const events = await say(runner, 'What does the report say?');
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe('Revenue is 42, and the chart is one pixel.');

    const [first, second] = model.requests;
    expect(systemText(first)).toContain(LIST_INSTRUCTION(['chart.png', 'report.txt']));
    expect(first!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'What does the report say?' }] });
    // Step two: the echo, then one user content per name, in the order asked.
    expect(second!.contents.slice(-3)).toEqual([
      { role: 'user', parts: [{ functionResponse: { id: 'call-1', name: 'load_artifacts', response: { artifact_names: ['report.txt', 'chart.png'] } } }] },
      { role: 'user', parts: [{ text: 'Artifact report.txt is:' }, { text: 'Revenue: 42' }] },
      { role: 'user', parts: [{ text: 'Artifact chart.png is:' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
    ]);

    // The content is not saved in the session: the next turn's request has the echo but not the bytes.
    await say(runner, 'Anything else?');
    const third = model.requests[2]!;
    expect(JSON.stringify(third.contents)).not.toContain('Revenue: 42');
    expect(JSON.stringify(third.contents)).not.toContain(PNG);
    expect(third.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Anything else?' }] });
  });

  it('BT-2: no artifacts, no instruction; the tool is still offered', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    await say(setup(model, new InMemoryArtifactService()), 'hi');
    expect(systemText(model.requests[0])).not.toContain('You have a list of artifacts');
    expect(Object.keys(model.requests[0]!.tools)).toEqual(['load_artifacts']);
  });

  it("BT-2: user: artifacts of the user's other sessions are listed and loaded", async () => {
    const artifacts = fileStore();
    const saveProfile = functionTool({
      name: 'save_profile',
      description: 'Saves the profile.',
      parameters: Type.Object({ text: Type.String() }),
      execute: async ({ text }, ctx) => ({ version: await ctx.saveArtifact('user:profile.md', { text }) }),
    });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'save_profile', args: { text: 'Ada likes tea.' } }]),
      textResponse('Saved.'),
      functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: ['user:profile.md'] } }]),
      textResponse('You like tea.'),
    ]);
    const runner = setup(model, artifacts, [loadArtifactsTool, saveProfile]);
    const saved = await say(runner, 'Remember I like tea.', 'monday');
    // saveArtifact records the new version on the event of the call (artifactDelta).
    expect(saved.find((e) => e.content?.parts?.[0]?.functionResponse)?.actions.artifactDelta).toEqual({ 'user:profile.md': 0 });

    await say(runner, 'What do I like?', 'tuesday');
    expect(systemText(model.requests[2])).toContain(LIST_INSTRUCTION(['user:profile.md']));
    expect(model.requests[3]!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Artifact user:profile.md is:' }, { text: 'Ada likes tea.' }] });
  });

  it('BT-2: 20 artifacts load in parallel and arrive in the order asked, whatever order they finish in', async () => {
    const store = new InMemoryArtifactService();
    const names = Array.from({ length: 20 }, (_, i) => `part-${String(i).padStart(2, '0')}.txt`);
    for (const name of names) await store.saveArtifact({ ...owner, filename: name, artifact: { text: `content of ${name}` } });
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const slow: ArtifactService = Object.assign(Object.create(store) as ArtifactService, {
      loadArtifact: async (request: Parameters<ArtifactService['loadArtifact']>[0]) => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Hold every load until all 20 have started, then finish them last-first.
        await new Promise<void>((resolve) => {
          release.push(resolve);
          if (release.length === names.length) for (const done of release.reverse()) setTimeout(done, 0);
        });
        inFlight--;
        return store.loadArtifact(request);
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: names } }]), textResponse('done')]);
    await say(setup(model, slow), 'load them all');
    expect(most).toBe(20);
    expect(model.requests[1]!.contents.slice(-20)).toEqual(
      names.map((name) => ({ role: 'user', parts: [{ text: `Artifact ${name} is:` }, { text: `content of ${name}` }] })),
    );
  });

  it('BT-2: a load_artifacts call beside another call is served too', async () => {
    const store = new InMemoryArtifactService();
    await store.saveArtifact({ ...owner, filename: 'notes.md', artifact: { text: '# Notes' } });
    const clock = functionTool({ name: 'clock', description: 'The time.', parameters: Type.Object({}), execute: () => ({ now: 'noon' }) });
    const model = new ScriptedModel([
      functionCallResponse([{ name: 'clock' }, { name: 'load_artifacts', args: { artifact_names: ['notes.md'] } }]),
      textResponse('done'),
    ]);
    await say(setup(model, store, [clock, loadArtifactsTool]), 'time and notes');
    expect(model.requests[1]!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Artifact notes.md is:' }, { text: '# Notes' }] });
  });

  it('BT-2: an artifact deleted after the call becomes a note; a store that fails fails the step, naming the artifact', async () => {
    const store = new InMemoryArtifactService();
    await store.saveArtifact({ ...owner, filename: 'gone.txt', artifact: { text: 'soon gone' } });
    const deleting: ArtifactService = Object.assign(Object.create(store) as ArtifactService, {
      loadArtifact: async (request: Parameters<ArtifactService['loadArtifact']>[0]) => {
        await store.deleteArtifact(request);
        return store.loadArtifact(request);
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: ['gone.txt'] } }]), textResponse('gone')]);
    await say(setup(model, deleting), 'read it');
    expect(model.requests[1]!.contents.at(-1)!.parts).toEqual([
      { text: 'Artifact gone.txt is:' },
      { text: '[Artifact: "gone.txt" was not found. It may have been deleted.]' },
    ]);

    await store.saveArtifact({ ...owner, filename: 'disk.txt', artifact: { text: 'x' } });
    const failing: ArtifactService = Object.assign(Object.create(store) as ArtifactService, {
      loadArtifact: async () => {
        throw new Error('EIO: i/o error');
      },
    });
    const failingModel = new ScriptedModel([functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: ['disk.txt'] } }])]);
    const events = await say(setup(failingModel, failing), 'read it');
    expect(events.at(-1)).toMatchObject({ errorCode: 'REQUEST_ERROR', errorMessage: 'failed to load artifact disk.txt: EIO: i/o error' });

    const unlisted: ArtifactService = Object.assign(Object.create(store) as ArtifactService, {
      listArtifactKeys: async () => {
        throw new Error('permission denied');
      },
    });
    const listModel = new ScriptedModel([textResponse('never')]);
    expect((await say(setup(listModel, unlisted), 'hi')).at(-1)).toMatchObject({
      errorCode: 'REQUEST_ERROR',
      errorMessage: 'failed to list artifacts: permission denied',
    });
    expect(listModel.requests).toHaveLength(0);
  });

  it('BT-2: a response a callback rewrote with non-string names fails the step with the index', async () => {
    const store = new InMemoryArtifactService();
    await store.saveArtifact({ ...owner, filename: 'a.txt', artifact: { text: 'A' } });
    const model = new ScriptedModel([functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: ['a.txt'] } }]), textResponse('never')]);
    const runner = setup(model, store, [loadArtifactsTool], { afterToolCallback: () => ({ artifact_names: ['a.txt', { name: 'b' }] }) });
    expect((await say(runner, 'go')).at(-1)).toMatchObject({
      errorCode: 'REQUEST_ERROR',
      errorMessage: 'invalid artifact name type at index 1: object, expected string',
    });
  });
});

describe('what the model gets for each kind of artifact', () => {
  const cases: [string, Part, Part][] = [
    ['image', { inlineData: { mimeType: 'image/png', data: PNG } }, { inlineData: { mimeType: 'image/png', data: PNG } }],
    ['audio', { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }, { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } }],
    ['PDF', { inlineData: { mimeType: 'Application/PDF', data: 'JVBERi0=' } }, { inlineData: { mimeType: 'Application/PDF', data: 'JVBERi0=' } }],
    ['CSV with a charset', { inlineData: { mimeType: 'text/csv; charset=utf-8', data: Buffer.from('a,b\n1,2').toString('base64') } }, { text: 'a,b\n1,2' }],
    ['JSON', { inlineData: { mimeType: 'application/json', data: Buffer.from('{"ok":true}').toString('base64') } }, { text: '{"ok":true}' }],
    ['vendor JSON', { inlineData: { mimeType: 'application/vnd.api+json', data: Buffer.from('{}').toString('base64') } }, { text: '{}' }],
    ['invalid UTF-8', { inlineData: { mimeType: 'text/plain', data: Buffer.from([0x68, 0x69, 0xff]).toString('base64') } }, { text: 'hi\ufffd' }],
    [
      'a zip',
      { inlineData: { mimeType: 'application/zip', data: Buffer.alloc(1000).toString('base64') } },
      { text: '[Binary artifact: "f", type: "application/zip", size: 1000 bytes. Content cannot be displayed inline.]' },
    ],
    [
      'a video',
      { inlineData: { mimeType: 'video/mp4', data: 'AAAA' } },
      { text: '[Binary artifact: "f", type: "video/mp4", size: 3 bytes. Content cannot be displayed inline.]' },
    ],
    [
      'no type',
      { inlineData: { data: 'AA==' } },
      { text: '[Binary artifact: "f", type: "application/octet-stream", size: 1 bytes. Content cannot be displayed inline.]' },
    ],
    ['empty data', { inlineData: { mimeType: 'image/png', data: '' } }, { text: '[Artifact: "f", type: "image/png". No inline data was provided.]' }],
    ['text', { text: 'plain' }, { text: 'plain' }],
    ['a file URI', { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/r.pdf' } }, { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/r.pdf' } }],
  ];

  it.each(cases)('BT-2: %s', async (_kind, saved, shown) => {
    const store = new InMemoryArtifactService();
    await store.saveArtifact({ ...owner, filename: 'f', artifact: saved });
    const model = new ScriptedModel([functionCallResponse([{ name: 'load_artifacts', args: { artifact_names: ['f'] } }]), textResponse('ok')]);
    await say(setup(model, store), 'show f');
    expect(model.requests[1]!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Artifact f is:' }, shown] });
  });
});

describe('size bounds on what load_artifacts sends (a 50 MB saved tool output never fills a request)', () => {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  it('a text artifact over 256 KiB reaches the model as its first 16 KiB and a note with the size', async () => {
    const { partForModel } = await import('../src/index.js');
    const big = 'x'.repeat(50 * 1024 * 1024);
    const part = partForModel({ inlineData: { mimeType: 'application/json', data: base64(big) } }, 'tool-outputs/report.json');
    expect(part.text!.length).toBeLessThan(17 * 1024);
    expect(part.text).toMatch(/\n\[Artifact "tool-outputs\/report\.json" is 52428800 bytes; the first 16384 bytes are shown above\./);
    const plain = partForModel({ text: big }, 'notes.txt');
    expect(plain.text!.length).toBeLessThan(17 * 1024);
    expect(plain.text).toContain('is 52428800 bytes');
    // Small artifacts are untouched.
    expect(partForModel({ inlineData: { mimeType: 'text/plain', data: base64('hello') } }, 'a.txt')).toEqual({ text: 'hello' });
  });

  it('the head of a large text is whole characters and exactly as many bytes as the note says', async () => {
    const { partForModel } = await import('../src/index.js');
    // 'é' is 2 bytes in UTF-8: a head cut at an odd byte ended in U+FFFD; the base64 slice also
    // decoded 16383 bytes while the note said 16384. Whitespace (MIME line breaks) is not data.
    const big = 'é'.repeat(200 * 1024);
    const data = base64(big).replace(/.{76}/g, '$&\r\n');
    const text = partForModel({ inlineData: { mimeType: 'text/plain', data } }, 'accents.txt').text!;
    const [head, note] = text.split('\n[');
    expect(head).toBe('é'.repeat(8192));
    expect(note).toBe('Artifact "accents.txt" is 409600 bytes; the first 16384 bytes are shown above. Ask the user, or a tool that can search it, for the rest.]');
    const odd = partForModel({ inlineData: { mimeType: 'text/plain', data: base64(`a${big}`) } }, 'odd.txt').text!;
    expect(odd.split('\n[')[0]).toBe(`a${'é'.repeat(8191)}`);
    expect(odd).toContain('the first 16383 bytes are shown above');
    // A text part is cut by characters, never inside a surrogate pair.
    const emoji = partForModel({ text: `a${'😀'.repeat(200 * 1024)}` }, 'emoji.txt').text!;
    expect(emoji.split('\n[')[0]).toBe(`a${'😀'.repeat(8191)}`);
    expect(emoji).toContain('the first 16383 characters are shown above');
  });

  it('inline data over 20 MiB becomes a placeholder', async () => {
    const { partForModel } = await import('../src/index.js');
    const data = Buffer.alloc(21 * 1024 * 1024).toString('base64');
    expect(partForModel({ inlineData: { mimeType: 'image/png', data } }, 'huge.png')).toEqual({
      text: '[Artifact: "huge.png", type: "image/png", size: 22020096 bytes: too large to send to the model (limit 20971520 bytes).]',
    });
  });
});

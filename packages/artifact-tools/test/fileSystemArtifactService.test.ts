// FileSystemArtifactService: the shared ArtifactService suite on real files (it lists the bad
// names and parts it tries), then what only a disk store must keep. Bad input tried here besides:
// options without a root, an empty root, a root with NUL, a version file left half-written by a
// killed process (a leftover temp file), a corrupted version file, one of a newer format, a
// folder deleted under a save, ids and names made to walk out of the root, and two processes
// saving the same name at the same moment.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isAdkitError, type Part } from '@adkit/flow';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runArtifactServiceSuite } from '../../flow/test/support/artifactServiceSuite.js';
import { FileSystemArtifactService } from '../src/index.js';

function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'adkit-artifacts-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

runArtifactServiceSuite('FileSystemArtifactService', async () => {
  const root = mkdtempSync(join(tmpdir(), 'adkit-artifacts-'));
  return { service: new FileSystemArtifactService({ root }), close: async () => rmSync(root, { recursive: true, force: true }) };
});

const key = { appName: 'shop', userId: 'ada', sessionId: 's1' } as const;
const text = (t: string): Part => ({ text: t });

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(path).map((p) => join(entry.name, p)));
    else found.push(entry.name);
  }
  return found;
}

describe('FileSystemArtifactService', () => {
  it('refuses a missing or empty root at construction, naming the fix', () => {
    const construct = (options: unknown) => () => new FileSystemArtifactService(options as { root: string });
    expect(construct(undefined)).toThrow("FileSystemArtifactService needs a root folder, got none; pass {root: './artifacts'}.");
    expect(construct({})).toThrow("FileSystemArtifactService needs a root folder, got none; pass {root: './artifacts'}.");
    expect(construct({ root: '  ' })).toThrow('FileSystemArtifactService needs a root folder, got "  "; pass {root: \'./artifacts\'}.');
    expect(construct({ root: 'a\u0000b' })).toThrow('FileSystemArtifactService: the root folder must not contain NUL.');
    try {
      construct({ root: 7 })();
    } catch (error) {
      expect(isAdkitError(error) && error.code).toBe('INVALID_CONFIG');
    }
  });

  it('resolves a relative root once, at construction', () => {
    const root = tempRoot();
    const before = process.cwd();
    process.chdir(root);
    try {
      expect(new FileSystemArtifactService({ root: 'store' }).root).toBe(join(realpathSync(root), 'store'));
    } finally {
      process.chdir(before);
    }
  });

  it('keeps versions across a restart, and numbering goes on from the last one', async () => {
    const root = tempRoot();
    const first = new FileSystemArtifactService({ root });
    await first.saveArtifact({ ...key, filename: 'plan.md', artifact: text('draft') });
    await first.saveArtifact({ ...key, filename: 'plan.md', artifact: text('final') });
    await first.saveArtifact({ ...key, filename: 'user:avatar.png', artifact: { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } } });

    const restarted = new FileSystemArtifactService({ root });
    expect(await restarted.listArtifactKeys(key)).toEqual(['plan.md', 'user:avatar.png']);
    expect(await restarted.listVersions({ ...key, filename: 'plan.md' })).toEqual([0, 1]);
    expect(await restarted.loadArtifact({ ...key, filename: 'plan.md', version: 0 })).toEqual(text('draft'));
    expect(await restarted.loadArtifact({ ...key, filename: 'plan.md' })).toEqual(text('final'));
    expect(await restarted.loadArtifact({ ...key, sessionId: 'later', filename: 'user:avatar.png' })).toEqual({
      inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    });
    expect(await restarted.saveArtifact({ ...key, filename: 'plan.md', artifact: text('v3') })).toBe(2);
  });

  it('gives two processes saving one name at once distinct versions, losing none', { timeout: 30_000 }, async () => {
    const root = tempRoot();
    const writer = fileURLToPath(new URL('./support/artifactWriter.mjs', import.meta.url));
    const perWriter = 40;
    const children = ['A', 'B'].map((name) => {
      const child = spawn(process.execPath, [writer, root, name, String(perWriter)], { stdio: ['pipe', 'pipe', 'inherit'] });
      onTestFinished(() => void child.kill());
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      return { name, child, next: async () => (await lines.next()).value as string };
    });
    for (const { next } of children) expect(await next()).toBe('ready');
    for (const { child } of children) child.stdin.write('go\n');
    const got = await Promise.all(children.map(async ({ next }) => JSON.parse(await next()) as number[]));

    const service = new FileSystemArtifactService({ root });
    const all = Array.from({ length: 2 * perWriter }, (_, i) => i);
    expect([...got[0]!, ...got[1]!].sort((a, b) => a - b)).toEqual(all);
    expect(await service.listVersions({ ...key, filename: 'shared.txt' })).toEqual(all);
    for (const [w, name] of ['A', 'B'].entries())
      for (const [i, version] of got[w]!.entries())
        expect(await service.loadArtifact({ ...key, filename: 'shared.txt', version })).toEqual(text(`${name}-${i}`));
    // Each writer's own saves are in order; no temporary file is left behind.
    for (const versions of got) expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(filesUnder(root).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('never shows a version a killed writer left half-written', async () => {
    const root = tempRoot();
    const service = new FileSystemArtifactService({ root });
    await service.saveArtifact({ ...key, filename: 'report.txt', artifact: text('complete') });
    const [version0] = filesUnder(root);
    const dir = join(root, version0!.slice(0, -'0.adkit'.length));
    // What a process killed between writing and publishing leaves: a temporary file, cut short.
    writeFileSync(join(dir, `.tmp-99999-${'0'.repeat(8)}`), '{"format":1,"filename":"report.txt","part":{},"payl');

    expect(await service.listVersions({ ...key, filename: 'report.txt' })).toEqual([0]);
    expect(await service.loadArtifact({ ...key, filename: 'report.txt' })).toEqual(text('complete'));
    expect(await service.listArtifactKeys(key)).toEqual(['report.txt']);
    expect(await service.saveArtifact({ ...key, filename: 'report.txt', artifact: text('next') })).toBe(1);
  });

  it('reports a corrupted or newer-format version file with an ArtifactError naming the file', async () => {
    const root = tempRoot();
    const service = new FileSystemArtifactService({ root });
    await service.saveArtifact({ ...key, filename: 'a.txt', artifact: text('ok') });
    const file = join(root, filesUnder(root)[0]!);

    writeFileSync(file, 'garbage without a header line');
    const corrupted = await service.loadArtifact({ ...key, filename: 'a.txt' }).catch((e: unknown) => e);
    expect(corrupted).toMatchObject({ code: 'ARTIFACT_ERROR' });
    expect((corrupted as Error).message).toBe(`loadArtifact "a.txt" version 0: not an adkit artifact version file (no header line) (${file}).`);

    writeFileSync(file, '{"format":2,"filename":"a.txt","part":{}}\n');
    const newer = await service.loadArtifact({ ...key, filename: 'a.txt' }).catch((e: unknown) => e);
    expect((newer as Error).message).toBe(
      `loadArtifact "a.txt" version 0: artifact version file format 2 is not supported (this release reads format 1); upgrade @adkit/artifact-tools (${file}).`,
    );
  });

  it('keeps every file inside the root, whatever the ids and names', async () => {
    const root = tempRoot();
    const service = new FileSystemArtifactService({ root: join(root, 'store') });
    const odd = [
      { appName: '..', userId: '../..', sessionId: '/etc', filename: '__proto__' },
      { appName: 'a/b', userId: 'C:\\x', sessionId: '\u0000', filename: 'x/y/z.txt' },
      { appName: '', userId: '', sessionId: '', filename: 'user:..hidden' },
      { appName: 'A', userId: 'Ada', sessionId: 'S1', filename: 'A.TXT' },
      { appName: 'a', userId: 'ada', sessionId: 's1', filename: 'a.txt' },
    ];
    for (const [i, owner] of odd.entries()) await service.saveArtifact({ ...owner, artifact: text(`owner ${i}`) });
    for (const [i, owner] of odd.entries()) expect(await service.loadArtifact(owner)).toEqual(text(`owner ${i}`));

    const store = realpathSync(join(root, 'store'));
    const files = filesUnder(store);
    expect(files).toHaveLength(odd.length);
    for (const file of files) {
      expect(relative(store, realpathSync(join(store, file))).startsWith('..')).toBe(false);
      // Four folders (app, user, scope, name) or five (…, sessions, session, name), then the version.
      for (const part of file.split(sep).slice(0, -1)) expect(part).toMatch(/^(sessions|user|[a-z0-9_-][a-z0-9._-]{0,39}-[0-9a-f]{32})$/);
    }
    expect(readdirSync(root)).toEqual(['store']);
  });

  it('stores binary data as raw bytes, not base64', async () => {
    const root = tempRoot();
    const service = new FileSystemArtifactService({ root });
    const bytes = Buffer.alloc(1024 * 1024, 7);
    await service.saveArtifact({ ...key, filename: 'blob.bin', artifact: { inlineData: { mimeType: 'application/octet-stream', data: bytes.toString('base64') } } });
    const [file] = filesUnder(root);
    const size = statSync(join(root, file!)).size;
    expect(size).toBeGreaterThan(bytes.length);
    expect(size).toBeLessThan(bytes.length + 200);
    expect(readFileSync(join(root, file!)).subarray(-bytes.length).equals(bytes)).toBe(true);
  });

  it('a save whose folder is deleted under it starts again in a new one', async () => {
    const root = tempRoot();
    const service = new FileSystemArtifactService({ root });
    await service.saveArtifact({ ...key, filename: 'a.txt', artifact: text('v0') });
    const saves = Array.from({ length: 10 }, (_, i) => service.saveArtifact({ ...key, filename: 'a.txt', artifact: text(`w${i}`) }));
    await service.deleteArtifact({ ...key, filename: 'a.txt' });
    const versions = await Promise.all(saves);
    // Saves that landed before the delete went with it; the others started again at 0. None failed.
    const kept = await service.listVersions({ ...key, filename: 'a.txt' });
    expect(versions.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
    for (const version of kept) expect((await service.loadArtifact({ ...key, filename: 'a.txt', version }))?.text).toMatch(/^w\d$/);
    expect(readdirSync(root, { recursive: true }).filter((f) => String(f).includes('.deleting-'))).toEqual([]);
  });

  it('lists nothing from a root that does not exist yet, and does not create it by reading', async () => {
    const root = join(tempRoot(), 'not-yet');
    const service = new FileSystemArtifactService({ root });
    expect(await service.listArtifactKeys(key)).toEqual([]);
    expect(await service.loadArtifact({ ...key, filename: 'a.txt' })).toBeUndefined();
    expect(await service.listVersions({ ...key, filename: 'a.txt' })).toEqual([]);
    await service.deleteArtifact({ ...key, filename: 'a.txt' });
    expect(() => statSync(root)).toThrow();
    mkdirSync(root);
  });
});

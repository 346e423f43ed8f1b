/**
 * The contract every `ArtifactService` keeps, as one vitest suite. The in-memory service is the
 * reference; other services (`FileSystemArtifactService` in `@adkit/artifact-tools`) run the same
 * tests:
 *
 * ```ts
 * runArtifactServiceSuite('FileSystemArtifactService', async () => {
 *   const root = mkdtempSync(join(tmpdir(), 'artifacts-'));
 *   return { service: new FileSystemArtifactService({ root }), close: async () => rmSync(root, { recursive: true }) };
 * });
 * ```
 *
 * Bad input tried: an empty filename, names that would leave a store's root (`..` segments, with
 * `/` or `\`, absolute paths, drive letters, percent-encoded and double-encoded dots and slashes,
 * full-width dots, NUL and other control characters, `user:../x`, over-long names), `__proto__`
 * and `constructor` as names (they are plain names), non-Part artifacts (null, a string, an array,
 * a number as text, a number as data), unknown names and versions (negative, past the end,
 * fractional, NaN, a string), deleting what does not exist, ids that contain "/" or equal "user",
 * text with newlines and a NUL, non-canonical base64, 20 saves of one name at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAdkitError, type ArtifactService, type Part } from '../../src/index.js';

/** A fresh, empty service for one test, and how to dispose of it afterwards. */
export interface ArtifactServiceFixture {
  service: ArtifactService;
  close?: () => Promise<void>;
}

/** Names every service must refuse with an `ArtifactError`, whatever the method. */
export const REFUSED_ARTIFACT_NAMES: readonly string[] = [
  '..',
  '../secret.txt',
  'a/../../secret.txt',
  'a/b/..',
  '..\\secret.txt',
  'a\\..\\..\\secret.txt',
  '/etc/passwd',
  '\\\\server\\share\\x',
  'C:\\Windows\\win.ini',
  'c:relative.txt',
  '%2e%2e/secret.txt',
  '%2E%2E%2Fsecret.txt',
  'a%2f..%2f..%2fsecret.txt',
  '%252e%252e%252fsecret.txt',
  '%2fetc%2fpasswd',
  '\uff0e\uff0e/secret.txt',
  'a\u0000b.txt',
  'a.txt\u0000.png',
  'tab\there',
  'line\nbreak',
  'user:../secret.txt',
  'user:/etc/passwd',
  'user:',
  'x'.repeat(1025),
];

/** Odd names that are still plain names: every service stores and lists them as given. */
export const PLAIN_ARTIFACT_NAMES: readonly string[] = [
  '__proto__',
  'constructor',
  'toString',
  'user:__proto__',
  'charts/2024/q1.png',
  '...',
  '..hidden',
  'x..y',
  '100%',
  '%zz',
  'résumé.pdf',
  'Résumé.pdf',
  '日本語.txt',
  '🙂.png',
  ' spaced .txt',
  'user:shared/notes.md',
  'x'.repeat(1024),
];

const session = { appName: 'shop', userId: 'ada', sessionId: 's1' } as const;
const text = (t: string): Part => ({ text: t });

/** Registers the shared artifact-service tests under `describe(name)`. */
export function runArtifactServiceSuite(name: string, create: () => Promise<ArtifactServiceFixture>): void {
  describe(`${name} (shared ArtifactService suite)`, () => {
    let fixture: ArtifactServiceFixture;
    let artifacts: ArtifactService;
    beforeEach(async () => {
      fixture = await create();
      artifacts = fixture.service;
    });
    afterEach(async () => {
      await fixture.close?.();
    });

    const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (thrown: unknown) => thrown);

    describe('saveArtifact and loadArtifact', () => {
      it('numbers versions from 0 per artifact', async () => {
        expect(await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('v0') })).toBe(0);
        expect(await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('v1') })).toBe(1);
        expect(await artifacts.saveArtifact({ ...session, filename: 'b.txt', artifact: text('b0') })).toBe(0);
        expect(await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('v2') })).toBe(2);
      });

      it('loads the latest version, or the one asked for', async () => {
        await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('v0') });
        await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('v1') });
        expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt' })).toEqual(text('v1'));
        expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt', version: 0 })).toEqual(text('v0'));
        expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt', version: 1 })).toEqual(text('v1'));
      });

      it('keeps every kind of part as saved', async () => {
        const parts: Part[] = [
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'dot.png' } },
          { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/r.pdf' } },
          { text: 'plain' },
          { text: 'two\nlines\r\nand a NUL \u0000 and 🙂', partMetadata: JSON.parse('{"source":"test","__proto__":"kept as data"}') },
          { inlineData: { mimeType: 'application/octet-stream', data: 'AAA' } },
          { inlineData: { mimeType: 'text/plain', data: '' } },
          { text: '' },
          { functionResponse: { name: 'f', response: { ok: true } } },
        ];
        for (const [i, artifact] of parts.entries()) {
          await artifacts.saveArtifact({ ...session, filename: `f${i}`, artifact });
          expect(await artifacts.loadArtifact({ ...session, filename: `f${i}` })).toStrictEqual(artifact);
        }
        const withProto = await artifacts.loadArtifact({ ...session, filename: 'f3' });
        expect(Object.getPrototypeOf(withProto!.partMetadata)).toBe(Object.prototype);
        expect(Object.hasOwn(withProto!.partMetadata!, '__proto__')).toBe(true);
      });

      it('keeps 2 MB of binary data byte for byte', async () => {
        const bytes = Buffer.alloc(2 * 1024 * 1024);
        for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
        const data = bytes.toString('base64');
        await artifacts.saveArtifact({ ...session, filename: 'big.bin', artifact: { inlineData: { mimeType: 'application/zip', data } } });
        const loaded = await artifacts.loadArtifact({ ...session, filename: 'big.bin' });
        expect(loaded?.inlineData?.mimeType).toBe('application/zip');
        expect(loaded?.inlineData?.data === data).toBe(true);
      });

      it('resolves to undefined for an unknown name or version', async () => {
        await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('v0') });
        expect(await artifacts.loadArtifact({ ...session, filename: 'missing.txt' })).toBeUndefined();
        for (const version of [1, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, '0' as unknown as number])
          expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt', version })).toBeUndefined();
      });

      it('stores and hands out copies', async () => {
        const saved = { inlineData: { mimeType: 'text/plain', data: 'AAAA' } };
        await artifacts.saveArtifact({ ...session, filename: 'a.bin', artifact: saved });
        saved.inlineData.data = 'changed by caller';
        const loaded = await artifacts.loadArtifact({ ...session, filename: 'a.bin' });
        expect(loaded).toEqual({ inlineData: { mimeType: 'text/plain', data: 'AAAA' } });
        loaded!.inlineData!.data = 'changed by reader';
        expect(await artifacts.loadArtifact({ ...session, filename: 'a.bin' })).toEqual({ inlineData: { mimeType: 'text/plain', data: 'AAAA' } });
      });

      it('refuses an empty filename with an ArtifactError naming the fix, and stores nothing', async () => {
        const error = await refusal(artifacts.saveArtifact({ ...session, filename: '', artifact: text('x') }));
        expect(isAdkitError(error)).toBe(true);
        expect(error).toMatchObject({
          name: 'ArtifactError',
          code: 'ARTIFACT_ERROR',
          message: 'saveArtifact needs a filename; pass a non-empty name such as "report.txt".',
        });
        expect(await artifacts.listArtifactKeys(session)).toEqual([]);
      });

      it('refuses what is not a Part, and stores nothing', async () => {
        const bad: [unknown, string][] = [
          [null, 'saveArtifact needs a Part to save, such as {text: "…"} or {inlineData: {mimeType: "image/png", data: "<base64>"}}, got null.'],
          ['text', 'saveArtifact needs a Part to save, such as {text: "…"} or {inlineData: {mimeType: "image/png", data: "<base64>"}}, got string.'],
          [[{ text: 'x' }], 'saveArtifact needs a Part to save, such as {text: "…"} or {inlineData: {mimeType: "image/png", data: "<base64>"}}, got an array.'],
          [{ text: 5 }, "saveArtifact: the part's text must be a string, got number."],
          [{ inlineData: null }, 'saveArtifact: inlineData must be {mimeType, data}, got null.'],
          [
            { inlineData: { mimeType: 'image/png', data: new Uint8Array(3) } },
            "saveArtifact: inlineData.data must be a base64 string, got object; encode bytes with Buffer.from(bytes).toString('base64').",
          ],
        ];
        for (const [artifact, message] of bad) {
          const error = await refusal(artifacts.saveArtifact({ ...session, filename: 'x', artifact: artifact as Part }));
          expect(error).toMatchObject({ code: 'ARTIFACT_ERROR', message });
        }
        expect(await artifacts.listArtifactKeys(session)).toEqual([]);
      });
    });

    describe('names', () => {
      it('refuses names that would leave the store, on every method, and stores nothing', async () => {
        for (const filename of REFUSED_ARTIFACT_NAMES) {
          const calls: [string, Promise<unknown>][] = [
            ['saveArtifact', artifacts.saveArtifact({ ...session, filename, artifact: text('x') })],
            ['loadArtifact', artifacts.loadArtifact({ ...session, filename })],
            ['listVersions', artifacts.listVersions({ ...session, filename })],
            ['deleteArtifact', artifacts.deleteArtifact({ ...session, filename })],
          ];
          for (const [method, call] of calls) {
            const error = await refusal(call);
            expect(isAdkitError(error), `${method}(${JSON.stringify(filename)})`).toBe(true);
            expect((error as Error).message).toMatch(new RegExp(`^${method}: artifact name .* is refused: `));
            expect((error as Error).message).toContain('Use a relative name such as "report.txt"');
          }
        }
        expect(await artifacts.listArtifactKeys(session)).toEqual([]);
      });

      it('says why a name is refused', async () => {
        const message = async (filename: string) =>
          ((await refusal(artifacts.saveArtifact({ ...session, filename, artifact: text('x') }))) as Error).message;
        expect(await message('../secret.txt')).toBe(
          'saveArtifact: artifact name "../secret.txt" is refused: an artifact name must not contain ".." segments. ' +
            'Use a relative name such as "report.txt" or "charts/q1.png" (prefix "user:" to share it across the user\'s sessions).',
        );
        expect(await message('/etc/passwd')).toContain('is refused: an artifact name must not be an absolute path.');
        expect(await message('a\u0000b.txt')).toContain('is refused: an artifact name must not contain control characters (NUL included).');
        expect(await message('%2e%2e%2fx')).toContain('is refused: an artifact name must not contain ".." segments.');
        expect(await message('x'.repeat(1025))).toContain('is refused: an artifact name must be at most 1024 characters long, got 1025.');
      });

      it('stores odd but harmless names (__proto__, dots, percent signs, Unicode) as plain names', async () => {
        for (const [i, filename] of PLAIN_ARTIFACT_NAMES.entries())
          expect(await artifacts.saveArtifact({ ...session, filename, artifact: text(`content ${i}`) })).toBe(0);
        for (const [i, filename] of PLAIN_ARTIFACT_NAMES.entries()) {
          expect(await artifacts.loadArtifact({ ...session, filename })).toEqual(text(`content ${i}`));
          expect(await artifacts.listVersions({ ...session, filename })).toEqual([0]);
        }
        expect(await artifacts.listArtifactKeys(session)).toEqual([...PLAIN_ARTIFACT_NAMES].sort());
        // Names that differ only in case or Unicode form are different artifacts.
        expect(await artifacts.loadArtifact({ ...session, filename: 'RÉSUMÉ.pdf' })).toBeUndefined();
        expect(await artifacts.loadArtifact({ ...session, filename: 're\u0301sume\u0301.pdf' })).toBeUndefined();
      });
    });

    describe('concurrency', () => {
      it('gives 20 saves of one name at once 20 distinct versions, losing none', async () => {
        const versions = await Promise.all(
          Array.from({ length: 20 }, (_, i) => artifacts.saveArtifact({ ...session, filename: 'log.txt', artifact: text(`writer ${i}`) })),
        );
        expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        expect(await artifacts.listVersions({ ...session, filename: 'log.txt' })).toEqual(versions.map((_, i) => i));
        for (const [writer, version] of versions.entries())
          expect(await artifacts.loadArtifact({ ...session, filename: 'log.txt', version })).toEqual(text(`writer ${writer}`));
      });
    });

    describe('scopes', () => {
      it('keeps plain names per session, and apart between users and apps', async () => {
        await artifacts.saveArtifact({ ...session, filename: 'notes.txt', artifact: text('mine') });
        expect(await artifacts.loadArtifact({ ...session, sessionId: 's2', filename: 'notes.txt' })).toBeUndefined();
        expect(await artifacts.loadArtifact({ ...session, userId: 'bob', filename: 'notes.txt' })).toBeUndefined();
        expect(await artifacts.loadArtifact({ ...session, appName: 'bank', filename: 'notes.txt' })).toBeUndefined();
      });

      it("shares user: names across the user's sessions, and not with other users or apps", async () => {
        expect(await artifacts.saveArtifact({ ...session, filename: 'user:avatar.png', artifact: text('v0') })).toBe(0);
        expect(await artifacts.saveArtifact({ ...session, sessionId: 's2', filename: 'user:avatar.png', artifact: text('v1') })).toBe(1);

        expect(await artifacts.loadArtifact({ ...session, sessionId: 's3', filename: 'user:avatar.png' })).toEqual(text('v1'));
        expect(await artifacts.listVersions({ ...session, sessionId: 's3', filename: 'user:avatar.png' })).toEqual([0, 1]);
        expect(await artifacts.listArtifactKeys({ ...session, sessionId: 's3' })).toEqual(['user:avatar.png']);

        expect(await artifacts.loadArtifact({ ...session, userId: 'bob', filename: 'user:avatar.png' })).toBeUndefined();
        expect(await artifacts.loadArtifact({ ...session, appName: 'bank', filename: 'user:avatar.png' })).toBeUndefined();
        expect(await artifacts.listArtifactKeys({ ...session, userId: 'bob' })).toEqual([]);
      });

      it('keeps sessions apart when a session id is "user" (no names leak into other sessions)', async () => {
        await artifacts.saveArtifact({ ...session, sessionId: 'user', filename: 'private.txt', artifact: text('x') });
        expect(await artifacts.listArtifactKeys({ ...session, sessionId: 'other' })).toEqual([]);
        expect(await artifacts.listArtifactKeys({ ...session, sessionId: 'user' })).toEqual(['private.txt']);
      });

      it('keeps owners apart when ids contain "/" or ".."', async () => {
        // Session "s" saves "x/y"; session "s/x" must not see it as "y".
        await artifacts.saveArtifact({ ...session, sessionId: 's', filename: 'x/y', artifact: text('session s') });
        expect(await artifacts.loadArtifact({ ...session, sessionId: 's/x', filename: 'y' })).toBeUndefined();
        expect(await artifacts.listArtifactKeys({ ...session, sessionId: 's/x' })).toEqual([]);

        // App "a", user "b/c" and app "a/b", user "c" are different owners.
        await artifacts.saveArtifact({ appName: 'a', userId: 'b/c', sessionId: 's', filename: 'f', artifact: text('owner 1') });
        expect(await artifacts.loadArtifact({ appName: 'a/b', userId: 'c', sessionId: 's', filename: 'f' })).toBeUndefined();

        // Ids are data, never paths: a user id of "../bob" is its own user, not bob.
        await artifacts.saveArtifact({ ...session, userId: '../bob', sessionId: '../../s1', filename: 'f', artifact: text('odd ids') });
        expect(await artifacts.loadArtifact({ ...session, userId: '../bob', sessionId: '../../s1', filename: 'f' })).toEqual(text('odd ids'));
        expect(await artifacts.loadArtifact({ ...session, userId: 'bob', sessionId: 's1', filename: 'f' })).toBeUndefined();
        expect(await artifacts.listArtifactKeys({ ...session, userId: 'bob', sessionId: 's1' })).toEqual([]);
      });
    });

    describe('listArtifactKeys', () => {
      it("lists the session's names and the user's user: names, sorted, once each", async () => {
        for (const filename of ['b.txt', 'user:z.png', 'a.txt', 'B.txt', 'a.txt', 'user:a.png'])
          await artifacts.saveArtifact({ ...session, filename, artifact: text(filename) });
        await artifacts.saveArtifact({ ...session, sessionId: 's2', filename: 'other-session.txt', artifact: text('x') });
        await artifacts.saveArtifact({ ...session, userId: 'bob', filename: 'user:bob.png', artifact: text('x') });

        expect(await artifacts.listArtifactKeys(session)).toEqual(['B.txt', 'a.txt', 'b.txt', 'user:a.png', 'user:z.png']);
      });

      it('is empty for a session with no artifacts', async () => {
        expect(await artifacts.listArtifactKeys(session)).toEqual([]);
      });
    });

    describe('deleteArtifact and listVersions', () => {
      it('lists the versions of an artifact', async () => {
        for (let i = 0; i < 3; i++) await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text(`v${i}`) });
        expect(await artifacts.listVersions({ ...session, filename: 'a.txt' })).toEqual([0, 1, 2]);
        expect(await artifacts.listVersions({ ...session, filename: 'missing' })).toEqual([]);
      });

      it('deletes every version of one artifact and nothing else; a later save starts again at 0', async () => {
        await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('a0') });
        await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('a1') });
        await artifacts.saveArtifact({ ...session, filename: 'b.txt', artifact: text('b0') });
        await artifacts.saveArtifact({ ...session, sessionId: 's2', filename: 'a.txt', artifact: text('other') });

        await artifacts.deleteArtifact({ ...session, filename: 'a.txt' });

        expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt' })).toBeUndefined();
        expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt', version: 0 })).toBeUndefined();
        expect(await artifacts.listVersions({ ...session, filename: 'a.txt' })).toEqual([]);
        expect(await artifacts.listArtifactKeys(session)).toEqual(['b.txt']);
        expect(await artifacts.loadArtifact({ ...session, sessionId: 's2', filename: 'a.txt' })).toEqual(text('other'));
        expect(await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('again') })).toBe(0);
      });

      it("deletes a user: artifact for all of the user's sessions", async () => {
        await artifacts.saveArtifact({ ...session, filename: 'user:cv.pdf', artifact: text('cv') });
        await artifacts.deleteArtifact({ ...session, sessionId: 's2', filename: 'user:cv.pdf' });
        expect(await artifacts.loadArtifact({ ...session, filename: 'user:cv.pdf' })).toBeUndefined();
      });

      it('deleting an unknown artifact is a no-op', async () => {
        await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('a0') });
        await artifacts.deleteArtifact({ ...session, filename: 'missing.txt' });
        await artifacts.deleteArtifact({ ...session, sessionId: 's2', filename: 'a.txt' });
        expect(await artifacts.listVersions({ ...session, filename: 'a.txt' })).toEqual([0]);
      });
    });
  });
}

import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryArtifactService } from '../src/services/inMemoryArtifactService.js';
import { isAdkitError } from '../src/errors.js';
import type { Part } from '../src/content/content.js';

// Bad input tried: an empty filename, unknown names and versions (negative, past the end,
// fractional), deleting what does not exist, and ids that contain the path separator "/" or equal
// the word "user" (they must not let one session or user see another's artifacts).

const session = { appName: 'shop', userId: 'ada', sessionId: 's1' } as const;
const text = (t: string): Part => ({ text: t });

describe('InMemoryArtifactService', () => {
  let artifacts: InMemoryArtifactService;
  beforeEach(() => {
    artifacts = new InMemoryArtifactService();
  });

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
      ];
      for (const [i, artifact] of parts.entries()) {
        await artifacts.saveArtifact({ ...session, filename: `f${i}`, artifact });
        expect(await artifacts.loadArtifact({ ...session, filename: `f${i}` })).toStrictEqual(artifact);
      }
    });

    it('resolves to undefined for an unknown name or version', async () => {
      await artifacts.saveArtifact({ ...session, filename: 'a.txt', artifact: text('v0') });
      expect(await artifacts.loadArtifact({ ...session, filename: 'missing.txt' })).toBeUndefined();
      expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt', version: 1 })).toBeUndefined();
      expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt', version: -1 })).toBeUndefined();
      expect(await artifacts.loadArtifact({ ...session, filename: 'a.txt', version: 0.5 })).toBeUndefined();
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
      const error = await artifacts
        .saveArtifact({ ...session, filename: '', artifact: text('x') })
        .then(() => undefined, (thrown: unknown) => thrown);
      expect(isAdkitError(error)).toBe(true);
      expect(error).toMatchObject({
        name: 'ArtifactError',
        code: 'ARTIFACT_ERROR',
        message: 'saveArtifact needs a filename; pass a non-empty name such as "report.txt".',
      });
      expect(await artifacts.listArtifactKeys(session)).toEqual([]);
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

    it('keeps owners apart when ids contain "/"', async () => {
      // Session "s" saves "x/y"; session "s/x" must not see it as "y".
      await artifacts.saveArtifact({ ...session, sessionId: 's', filename: 'x/y', artifact: text('session s') });
      expect(await artifacts.loadArtifact({ ...session, sessionId: 's/x', filename: 'y' })).toBeUndefined();
      expect(await artifacts.listArtifactKeys({ ...session, sessionId: 's/x' })).toEqual([]);

      // App "a", user "b/c" and app "a/b", user "c" are different owners.
      await artifacts.saveArtifact({ appName: 'a', userId: 'b/c', sessionId: 's', filename: 'f', artifact: text('owner 1') });
      expect(await artifacts.loadArtifact({ appName: 'a/b', userId: 'c', sessionId: 's', filename: 'f' })).toBeUndefined();
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

// Pins the credential services: the encrypted one on the session store refuses to start without a
// key, keeps no plaintext, shares records between store handles (processes), and a record that was
// copied to another user or read with another key does not open.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, InMemorySessionService, type SessionService } from '@adkit/flow';
import { SqliteSessionService } from '@adkit/session-sqlite';
import { CredentialError, InMemoryCredentialService, SessionCredentialService } from '../src/index.js';

const key = { appName: 'app', userId: 'alice', name: 'adk_oauth2_x' };
const record = { authType: 'oauth2', oauth2: { accessToken: 'at-9f8e7d6c5b4a', refreshToken: 'rt-1a2b3c4d5e6f' } };

describe('credential services', () => {
  it('SessionCredentialService refuses to start without a 32-byte key', () => {
    const sessionService = new InMemorySessionService();
    expect(() => new SessionCredentialService({ sessionService } as never)).toThrow(ConfigError);
    expect(() => new SessionCredentialService({ sessionService } as never)).toThrow(/needs an encryptionKey: 32 random bytes/);
    expect(() => new SessionCredentialService({ sessionService, encryptionKey: new Uint8Array(16) })).toThrow('encryptionKey must be 32 bytes (AES-256), got 16.');
    expect(() => new SessionCredentialService({ sessionService: undefined as unknown as SessionService, encryptionKey: new Uint8Array(32) })).toThrow(ConfigError);
  });

  it('keeps records encrypted on a durable store, readable from another handle (another process), deletable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adkit-cred-'));
    try {
      const path = join(dir, 'db.sqlite');
      const encryptionKey = crypto.getRandomValues(new Uint8Array(32));
      const one = new SqliteSessionService({ path });
      await new SessionCredentialService({ sessionService: one, encryptionKey }).set(key, record);
      one.close();
      expect(readFileSync(path).toString('latin1')).not.toContain('at-9f8e7d6c5b4a');
      const two = new SqliteSessionService({ path });
      const service = new SessionCredentialService({ sessionService: two, encryptionKey });
      expect(await service.get(key)).toEqual(record);
      expect(await service.get({ ...key, userId: 'bob' })).toBeUndefined();
      // The app's own sessions of that user see nothing of it.
      expect(await two.listSessions({ appName: 'app', userId: 'alice' })).toEqual([]);
      await service.delete(key);
      expect(await service.get(key)).toBeUndefined();
      // Another key cannot read what was written.
      await service.set(key, record);
      await expect(new SessionCredentialService({ sessionService: two, encryptionKey: new Uint8Array(32) }).get(key)).rejects.toThrow(CredentialError);
      two.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a record copied to another user or name does not decrypt (bound to app, user and name)', async () => {
    const sessionService = new InMemorySessionService();
    const service = new SessionCredentialService({ sessionService, encryptionKey: new Uint8Array(32).fill(1) });
    await service.set(key, record);
    const sealed = (await sessionService.getSession({ appName: 'adkit-credentials:app', userId: 'alice', sessionId: 'credentials' }))!.state[`user:${key.name}`];
    expect(typeof sealed).toBe('string');
    expect(String(sealed)).not.toContain('at-9f8e7d6c5b4a');
    // Mallory copies alice's sealed record into her own slot.
    const mallory = await sessionService.createSession({ appName: 'adkit-credentials:app', userId: 'mallory', sessionId: 'credentials' });
    await sessionService.appendEvent(mallory, { id: 'x', invocationId: 'x', author: 'x', timestamp: Date.now(), actions: { stateDelta: { [`user:${key.name}`]: sealed }, artifactDelta: {} } });
    await expect(service.get({ ...key, userId: 'mallory' })).rejects.toThrow('does not decrypt');
  });

  it('InMemoryCredentialService keeps a copy: changing the object later changes nothing stored', async () => {
    const service = new InMemoryCredentialService();
    const mine = structuredClone(record);
    await service.set(key, mine);
    mine.oauth2.accessToken = 'changed';
    expect(await service.get(key)).toEqual(record);
  });
});

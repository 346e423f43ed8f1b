import { ConfigError, createEvent, isAdkitError, type SessionService } from '@adkit/flow';
import type { CredentialRecord, CredentialRecordKey, CredentialService } from './credentialService.js';
import { CredentialError } from './errors.js';

/** Options of `SessionCredentialService`. */
export interface SessionCredentialServiceOptions {
  /** The session store to keep records in (SQLite, Postgres, any `SessionService`). */
  sessionService: SessionService;
  /**
   * The AES-256-GCM key (32 random bytes, or a Web Crypto `CryptoKey` for AES-GCM) the records
   * are encrypted with. Keep it out of the store (an environment secret, a KMS). Required.
   */
  encryptionKey: Uint8Array | CryptoKey;
}

/** Web Crypto's key type, named without the DOM library. */
type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const FORMAT = 'v1';
const SESSION_ID = 'credentials';
const KEY_PREFIX = 'user:';
const MAX_ATTEMPTS = 5;

/**
 * Credentials on the session store, so every process of the app shares them: `user:`-scoped state
 * of a session of their own (app `adkit-credentials:<appName>`, session `credentials`), apart from
 * the app's sessions, so no model, instruction or dev-UI page of the app sees them. Each record is
 * encrypted with AES-256-GCM through Web Crypto, bound (additional data) to its app, user and name,
 * so a record copied to another user or name does not decrypt. Refuses to start without a key.
 */
export class SessionCredentialService implements CredentialService {
  private readonly sessions: SessionService;
  private readonly key: Promise<CryptoKey>;

  constructor(options: SessionCredentialServiceOptions) {
    if (!options?.sessionService) throw new ConfigError('SessionCredentialService needs a sessionService (the store to keep credentials in).');
    const key = options.encryptionKey;
    if (key === undefined || key === null)
      throw new ConfigError(
        'SessionCredentialService needs an encryptionKey: 32 random bytes (crypto.getRandomValues(new Uint8Array(32))) kept out of the store, e.g. in an environment secret. Credentials are never stored unencrypted.',
      );
    if (key instanceof Uint8Array) {
      if (key.byteLength !== 32) throw new ConfigError(`SessionCredentialService: encryptionKey must be 32 bytes (AES-256), got ${key.byteLength}.`);
      const bytes = new Uint8Array(key);
      this.key = crypto.subtle.importKey('raw', bytes, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    } else if (isCryptoKey(key)) {
      if (key.algorithm.name !== 'AES-GCM') throw new ConfigError(`SessionCredentialService: encryptionKey must be an AES-GCM key, got ${key.algorithm.name}.`);
      this.key = Promise.resolve(key);
    } else throw new ConfigError('SessionCredentialService: encryptionKey must be a Uint8Array of 32 bytes or an AES-GCM CryptoKey.');
    this.sessions = options.sessionService;
  }

  async get(key: CredentialRecordKey): Promise<CredentialRecord | undefined> {
    const session = await this.sessions.getSession({ appName: storeApp(key), userId: key.userId, sessionId: SESSION_ID });
    const sealed = session?.state[KEY_PREFIX + key.name];
    if (typeof sealed !== 'string' || sealed === '') return undefined;
    return this.open(key, sealed);
  }

  async set(key: CredentialRecordKey, record: CredentialRecord): Promise<void> {
    await this.write(key, await this.seal(key, record));
  }

  async delete(key: CredentialRecordKey): Promise<void> {
    // State keeps keys; an empty string is the deleted record.
    await this.write(key, '');
  }

  private async write(key: CredentialRecordKey, value: string): Promise<void> {
    const where = { appName: storeApp(key), userId: key.userId, sessionId: SESSION_ID };
    for (let attempt = 1; ; attempt++) {
      const session = (await this.sessions.getSession(where)) ?? (await this.createOrLoad(where));
      try {
        await this.sessions.appendEvent(session, createEvent({ invocationId: 'adkit-credentials', author: 'adkit-credentials', actions: { stateDelta: { [KEY_PREFIX + key.name]: value } } }));
        return;
      } catch (error) {
        // Another process wrote first: load again and retry, a few times.
        if (!(isAdkitError(error) && error.code === 'SESSION_CONFLICT') || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async createOrLoad(where: { appName: string; userId: string; sessionId: string }) {
    try {
      return await this.sessions.createSession(where);
    } catch (error) {
      const existing = await this.sessions.getSession(where);
      if (existing) return existing;
      throw error;
    }
  }

  private async seal(key: CredentialRecordKey, record: CredentialRecord): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = new TextEncoder().encode(JSON.stringify(record));
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bound(key) }, await this.key, data);
    return `${FORMAT}.${base64(iv)}.${base64(new Uint8Array(sealed))}`;
  }

  private async open(key: CredentialRecordKey, sealed: string): Promise<CredentialRecord> {
    const [format, iv, data] = sealed.split('.');
    if (format !== FORMAT || !iv || !data) throw new CredentialError(`The stored credential "${key.name}" has an unknown format; it was not written by this release.`);
    try {
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: unbase64(iv), additionalData: bound(key) }, await this.key, unbase64(data));
      return JSON.parse(new TextDecoder().decode(plain)) as CredentialRecord;
    } catch (cause) {
      throw new CredentialError(`The stored credential "${key.name}" does not decrypt: the encryption key changed, or the record was moved or edited.`, { cause });
    }
  }
}

function storeApp(key: CredentialRecordKey): string {
  return `adkit-credentials:${key.appName}`;
}

function bound(key: CredentialRecordKey): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(['adkit-credential', FORMAT, key.appName, key.userId, key.name]));
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof value === 'object' && value !== null && typeof (value as CryptoKey).algorithm === 'object' && typeof (value as CryptoKey).type === 'string';
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function unbase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

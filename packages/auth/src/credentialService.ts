/** Where a credential service keeps one record: a user of an app, and a name. */
export interface CredentialRecordKey {
  readonly appName: string;
  readonly userId: string;
  /** A credential key (`AuthConfig.credentialKey`) or the manager's own record (`pending:<state>`). */
  readonly name: string;
}

/** A JSON record a credential service keeps (a credential, a pending consent). */
export type CredentialRecord = Record<string, unknown>;

/**
 * Storage for credentials and pending consents, per user (ADK's `BaseCredentialService`). The
 * manager decides what goes in; a service only keeps records, and should keep them secret:
 * `InMemoryCredentialService` for tests and one process, `SessionCredentialService` (encrypted
 * on the session store) to share them between processes.
 */
export interface CredentialService {
  get(key: CredentialRecordKey): Promise<CredentialRecord | undefined>;
  set(key: CredentialRecordKey, record: CredentialRecord): Promise<void>;
  delete(key: CredentialRecordKey): Promise<void>;
}

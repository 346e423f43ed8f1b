import type { CredentialRecord, CredentialRecordKey, CredentialService } from './credentialService.js';

/** Credentials in this process's memory (tests, scripts, one-process apps); gone on exit. */
export class InMemoryCredentialService implements CredentialService {
  private readonly records = new Map<string, string>();

  async get(key: CredentialRecordKey): Promise<CredentialRecord | undefined> {
    const text = this.records.get(recordId(key));
    return text === undefined ? undefined : (JSON.parse(text) as CredentialRecord);
  }

  async set(key: CredentialRecordKey, record: CredentialRecord): Promise<void> {
    // Kept as JSON text, so a caller changing its object later changes nothing here.
    this.records.set(recordId(key), JSON.stringify(record));
  }

  async delete(key: CredentialRecordKey): Promise<void> {
    this.records.delete(recordId(key));
  }
}

function recordId(key: CredentialRecordKey): string {
  return JSON.stringify([key.appName, key.userId, key.name]);
}

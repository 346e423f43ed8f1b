import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/auth exports', () => {
  it('exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(
      ['CredentialError', 'InMemoryCredentialService', 'SessionCredentialService', 'createCredentialReply', 'credentialManager', 'pendingCredentialRequests'].sort(),
    );
  });
});

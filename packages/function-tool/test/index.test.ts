import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/function-tool exports', () => {
  it('pins the public API (a new export is an API decision)', () => {
    expect(Object.keys(api).sort()).toEqual(['CredentialRejectedError', 'PENDING_AUTHORIZATION', 'functionTool', 'streamingFunctionTool']);
  });
});

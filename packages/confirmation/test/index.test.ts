import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/confirmation exports', () => {
  it('exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'REQUEST_CONFIRMATION',
        'createConfirmationReply',
        'originalCallFrom',
        'pendingConfirmations',
        'withConfirmation',
      ].sort(),
    );
    expect(api.REQUEST_CONFIRMATION).toBe('adk_request_confirmation');
  });
});

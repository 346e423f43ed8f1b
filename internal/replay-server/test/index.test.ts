import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('pins the exports of @adkit/replay-server', () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      'FIXTURES_DIR',
      'endpointOf',
      'fixtureEntry',
      'fixtureIndex',
      'fixtureJson',
      'fixtureRequest',
      'fixtureRequestBody',
      'fixtureText',
      'splitSseEvents',
      'startReplayServer',
      'truncatedFixture',
    ].sort(),
  );
});

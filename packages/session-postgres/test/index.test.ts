import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(api).sort()).toEqual(['PostgresSessionService']);
});

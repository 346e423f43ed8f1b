import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('pins the exports of @adkit/model-openai', () => {
  expect(Object.keys(api).sort()).toEqual(['openai', 'schemaReport']);
});

import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('pins the exports of @adkit/test-support', () => {
  expect(Object.keys(api).sort()).toEqual(['codeBlocks', 'expectReadmeExample', 'processWarnings', 'runExample']);
});

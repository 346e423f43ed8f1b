import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('pins the exports of @adkit/model-gemini', () => {
  expect(Object.keys(api).sort()).toEqual(['gemini', 'geminiSchema']);
});

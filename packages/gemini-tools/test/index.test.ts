import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('pins the exports of @adkit/gemini-tools', () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      'codeExecution',
      'enterpriseWebSearch',
      'geminiTool',
      'googleMaps',
      'googleSearch',
      'isGeminiModel',
      'urlContext',
      'vertexAiSearch',
      'vertexRagRetrieval',
    ].sort(),
  );
});

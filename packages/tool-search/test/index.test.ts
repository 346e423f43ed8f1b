// Pins the public surface: a new export is an API decision, made here on purpose.
import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(api).sort()).toEqual(['MAX_QUERY_CHARS', 'SEARCH_TOOLS', 'loadedToolsKey', 'toolSearch']);
});

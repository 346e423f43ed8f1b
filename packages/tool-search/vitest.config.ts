import { defineProject } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

export default defineProject({
  resolve: { alias: adkitSourceAliases },
  test: { testTimeout: 30_000, name: '@adkit/tool-search', include: ['test/**/*.test.ts'] },
});

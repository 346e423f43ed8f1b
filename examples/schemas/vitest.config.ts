import { defineProject } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

export default defineProject({
  resolve: { alias: adkitSourceAliases },
  test: { testTimeout: 30_000, name: '@adkit/example-schemas', include: ['test/**/*.test.ts'] },
});

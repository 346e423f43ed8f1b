import { defineProject } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

// The examples are run by @adkit/function-tool's tests (test/readme.test.ts), which import them
// by path; this project has no tests of its own.
export default defineProject({
  resolve: { alias: adkitSourceAliases },
  test: { name: '@adkit/example-function-tools', include: ['test/**/*.test.ts'], passWithNoTests: true },
});

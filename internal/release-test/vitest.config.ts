import { defineProject } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

// The fast unit tests of the helpers only. The release test itself (test/*.release.ts) needs
// minutes and the npm registry, so it has its own config, run by .ci/release-test.
export default defineProject({
  resolve: { alias: adkitSourceAliases },
  test: { testTimeout: 30_000, name: '@adkit/release-test', include: ['test/**/*.test.ts'] },
});

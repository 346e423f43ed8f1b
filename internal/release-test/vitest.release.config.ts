import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

// The release test: publish every package to a local registry and install it as users will
// (`pnpm --filter @adkit/release-test run release-test`, or .ci/release-test). Never part of
// `npm test`: the root config's projects read vitest.config.ts, whose include does not match.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: adkitSourceAliases },
  test: {
    name: '@adkit/release-test:release',
    include: ['test/**/*.release.ts'],
    testTimeout: 240_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    // After the shared setup (build, version, publish) the checks are independent: running them
    // together overlaps one's network waits with another's type checks.
    sequence: { concurrent: true },
  },
});

import { defineProject } from 'vitest/config';

// The smoke test runs every benchmark once with tiny counts (ADKIT_BENCH_SMOKE=1) so that none can
// rot; the benchmarks themselves are never part of `npm test`.
export default defineProject({
  test: { name: '@adkit/bench', include: ['test/**/*.test.ts'], testTimeout: 300_000 },
});

import { defineProject } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

export default defineProject({
  resolve: { alias: adkitSourceAliases },
  test: {
    testTimeout: 30_000,
    name: '@adkit/example-postgres-sessions',
    include: ['test/**/*.test.ts'],
    // A PostgreSQL server for the run, as @adkit/session-postgres's own tests get it.
    globalSetup: ['../../packages/session-postgres/test/support/globalSetup.ts'],
  },
});

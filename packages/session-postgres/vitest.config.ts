import { defineProject } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

export default defineProject({
  resolve: { alias: adkitSourceAliases },
  test: {
    testTimeout: 30_000,
    name: '@adkit/session-postgres',
    include: ['test/**/*.test.ts'],
    // A PostgreSQL server for the run: ADKIT_TEST_PG_URL, or a throwaway cluster (see the file).
    globalSetup: ['test/support/globalSetup.ts'],
  },
});

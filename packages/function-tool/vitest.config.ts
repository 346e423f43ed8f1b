import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';
import { adkitSourceAliases } from '../../vitest.aliases.js';

// The README test runs examples/function-tools by path. Resolve `typebox` for those files from
// this package, so they run even before that example package has node_modules of its own.
const typeboxDir = realpathSync(fileURLToPath(new URL('./node_modules/typebox', import.meta.url)));

export default defineProject({
  resolve: {
    alias: [
      ...adkitSourceAliases,
      { find: /^typebox$/, replacement: `${typeboxDir}/build/index.mjs` },
      { find: /^typebox\/([a-z]+)$/, replacement: `${typeboxDir}/build/$1/index.mjs` },
    ],
  },
  test: { name: '@adkit/function-tool', include: ['test/**/*.test.ts'] },
});

import { fileURLToPath } from 'node:url';

// Tests run against each workspace package's sources, so a test never depends on a stale build
// and the packs' tests need no build step of their own. `npm test` still builds first: that is
// the type check and the .d.ts emit.
const root = fileURLToPath(new URL('.', import.meta.url));

export const adkitSourceAliases = [
  { find: /^@adkit\/flow\/testing$/, replacement: `${root}packages/flow/src/testing/index.ts` },
  { find: /^@adkit\/flow\/model-kit$/, replacement: `${root}packages/flow/src/modelKit.ts` },
  { find: /^@adkit\/flow\/store$/, replacement: `${root}packages/flow/src/store.ts` },
  { find: /^@adkit\/replay-server$/, replacement: `${root}internal/replay-server/src/index.ts` },
  { find: /^@adkit\/test-support$/, replacement: `${root}internal/test-support/src/index.ts` },
  { find: /^@adkit\/([a-z-]+)$/, replacement: `${root}packages/$1/src/index.ts` },
];

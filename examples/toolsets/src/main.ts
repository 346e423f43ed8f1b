// Runs the @adkit/tool README example offline and prints each event of the turn:
// `pnpm --filter @adkit/example-toolsets start`.
import { readmeExample } from './dictionary.js';

for (const line of await readmeExample()) console.log(line);

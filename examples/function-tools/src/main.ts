// Runs every example offline and prints what happened: `pnpm --filter @adkit/example-function-tools start`.
import { longRunningExample } from './longRunning.js';
import { stateAndActionsExample } from './stateAndActions.js';
import { streamingExample } from './streaming.js';
import { weatherExample } from './weather.js';

for (const [title, lines] of [
  ['weather', await weatherExample()],
  ['long-running', await longRunningExample()],
  ['streaming', await streamingExample()],
  ['state and actions', (await stateAndActionsExample()).lines],
] as const) {
  console.log(`## ${title}`);
  for (const line of lines) console.log(`  ${line}`);
}

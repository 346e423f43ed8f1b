// The same tool in zod, valibot, arktype and TypeBox, each run offline: `pnpm --filter @adkit/example-schemas start`.
import { bookTableArktype } from './arktype.js';
import { bookingExample } from './booking.js';
import { bookTableTypebox } from './typebox.js';
import { bookTableValibot } from './valibot.js';
import { bookTableZod } from './zod.js';

for (const [library, tool] of [
  ['zod', bookTableZod],
  ['valibot', bookTableValibot],
  ['arktype', bookTableArktype],
  ['typebox', bookTableTypebox],
] as const) {
  console.log(`## ${library}`);
  for (const line of await bookingExample(tool)) console.log(`  ${line}`);
}

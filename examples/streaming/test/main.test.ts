// The example runs as `node dist/main.js` would, offline: each chunk of the streaming tool reaches
// the client as a partial progress event, in order, before the one saved function response that
// joins them (TC-4). Bad input tried: none from outside; the example pins the stream's output.
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('TC-4: three chunks arrive as progress, then the joined result, and the model answers from it', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    '[call plan_itinerary({"city":"Lisbon","days":3})]',
    '  … plan_itinerary: Day 1 in Lisbon: the Alfama.',
    '  … plan_itinerary: Day 2 in Lisbon: Belém tower.',
    '  … plan_itinerary: Day 3 in Lisbon: a tram to Sintra.',
    '[response plan_itinerary: {"result":"Day 1 in Lisbon: the Alfama.\\nDay 2 in Lisbon: Belém tower.\\nDay 3 in Lisbon: a tram to Sintra.\\n"}]',
    'Your plan:\nDay 1 in Lisbon: the Alfama.\nDay 2 in Lisbon: Belém tower.\nDay 3 in Lisbon: a tram to Sintra.',
  ]);
  expect({ stderr, exitCode }).toEqual({ stderr: [], exitCode: 0 });
});

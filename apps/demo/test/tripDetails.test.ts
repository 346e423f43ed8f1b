// The demo's task agent (#27): trip_details is a tool of the assistant that talks with the user
// until it knows where and for how many nights, then hands both back; run offline through the
// whole demo app, and its brain on its own. Bad input tried: a number of nights out of range.
import { createLlmRequest, type Content } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { tripDetailsReply } from '../src/tripDetailsAgent.js';
import { demoLines } from './support.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });

describe('the trip-details task agent', () => {
  it('asks two questions, one per turn, then the assistant carries on with the details it handed back', { timeout: 60_000 }, async () => {
    const lines = await demoLines({
      script: [
        { session: 's', say: 'Plan a trip for me.' },
        { session: 's', say: 'Oslo' },
        { session: 's', say: '3' },
      ],
    });
    const said = lines.filter((line) => /^(user|assistant|trip_details)[:→ ]|^  (↳|trip_details ←)/.test(line));
    expect(said).toEqual([
      'user: Plan a trip for me.',
      'assistant → trip_details({"request":"Plan a trip for me."})',
      '  ↳ trip_details takes over the conversation until its task is done',
      'trip_details: Where would you like to go? I know Lisbon, Tokyo, Oslo and Paris.',
      'user: Oslo',
      'trip_details: How many nights in Oslo?',
      'user: 3',
      'trip_details → finish_task({"destination":"Oslo","nights":3})',
      '  trip_details ← {"destination":"Oslo","nights":3}',
      'assistant: Your trip: 3 nights in Oslo. Say "book 3 nights in Oslo" and I will book it.',
    ]);
  });

  it('offline, its brain asks for what is missing and finishes with both; nights out of range are asked again', () => {
    const reply = (...contents: Content[]) => tripDetailsReply(createLlmRequest({ contents })).content!.parts![0]!;
    expect(reply(user('Plan a trip')).text).toMatch(/^Where would you like to go\?/);
    expect(reply(user('A trip to Paris')).text).toBe('How many nights in Paris?');
    expect(reply(user('Plan a trip'), model('Where?'), user('Tokyo'), model('How many nights?'), user('99')).text).toBe('How many nights in Tokyo?');
    expect(reply(user('2 nights in Lisbon')).functionCall).toEqual({ name: 'finish_task', args: { destination: 'Lisbon', nights: 2 } });
  });
});

// `npm run demo` (the scripted, non-interactive demo), run in this process, offline: the
// transcript shows every feature the demo wires (issue 17), a waiting call reads as waiting
// (never as the raw "requires confirmation" error), and the whole transcript is pinned.
// Bad input tried: rejections by the user and the manager.
import { readFileSync } from 'node:fs';
import { codeBlocks } from '@adkit/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoLines, normalised } from './support.js';

const GOLDEN = readFileSync(new URL('./fixtures/offlineTranscript.txt', import.meta.url), 'utf8').split('\n').slice(0, -1);

describe('the scripted demo, offline', { timeout: 60_000 }, () => {
  let lines: string[];
  beforeAll(async () => {
    lines = await demoLines();
  }, 60_000);

  it.each([
    ['says it is offline, on the demo brain', ['model: offline demo brain (a scripted model that picks tools from your words; set OPENAI_API_KEY or GEMINI_API_KEY for a real one)']],
    [
      'FL-14: a weather function tool, called in parallel with another',
      ['assistant → get_weather({"city":"Lisbon"})', 'assistant → get_weather({"city":"Tokyo"})', '  get_weather ← {"city":"Lisbon","celsius":21,"sky":"sunny"}'],
    ],
    [
      'HC-2: a call waiting for approval reads as waiting, and the answer given is shown',
      ['  ⏸ book_trip is waiting for your approval', 'approver: approves book_trip({"city":"Lisbon","nights":3})', 'assistant: Booked 3 nights in Lisbon; your reference is LIS-1001.'],
    ],
    [
      "FL-8, FL-15: ADK's reimbursement flow: ask_for_approval runs long, the manager answers later, then reimburse",
      [
        'assistant → ask_for_approval({"purpose":"client dinner","amount":480}) (long-running)',
        '  ⏳ ask_for_approval answers later; for now: {"status":"pending","purpose":"client dinner","amount":480,"ticketId":"reimbursement-ticket-001"}',
        'manager: answers ask_for_approval({"purpose":"client dinner","amount":480}) with {"status":"approved","ticketId":"reimbursement-ticket-001"}',
        '  reimburse ← {"status":"ok","purpose":"client dinner","amount":480}',
      ],
    ],
    [
      'HC-1, HC-10: the vacation request asks with a payload and gets the manager’s',
      [
        '  ⏸ request_vacation_days is waiting for your approval: Approve 5 vacation days? Fill in days_approved.',
        'approver: approves request_vacation_days({"days":5}) with {"days_approved":3}',
        '  request_vacation_days ← {"status":"Approved.","days_requested":5,"days_approved":3}',
      ],
    ],
    [
      'OpenAPI (#28): a REST API through its OpenAPI description; adopt_pet, a POST, asks first (HC-2)',
      [
        'assistant → list_pets({"species":"cat"})',
        "assistant: The pet shop's API lists Tom (a 2-year-old cat), Kitty (a 1-year-old cat).",
        '  ⏸ adopt_pet is waiting for your approval',
        'approver: approves adopt_pet({"name":"Kitty"})',
        "assistant: You adopted Kitty, the cat; the pet shop's API answered 201.",
      ],
    ],
    [
      'AT-6: the summarizer agent as a tool, its own answer shown as progress',
      ['  … summarizer › summarizer: adkit is the tool system of an agent development kit, in TypeScript. (and 2 more sentences)'],
    ],
    [
      'MCP-7: the in-memory MCP server (built with the SDK) reports progress',
      ['assistant → get_forecast({"city":"Oslo","days":3})', '  … get_forecast [###-------]  33% day 1 of 3', '  … get_forecast [##########] 100% day 3 of 3'],
    ],
    [
      'MCP-4: the real filesystem server over stdio reads a file of the temp folder',
      [
        '  list_directory ← {"output":{"content":"[FILE] trip-ideas.txt\\n[FILE] welcome.txt"}}',
        '  welcome.txt says: "Welcome to the adkit demo. This folder is served by @modelcontextprotocol/server-filesystem over stdio."',
      ],
    ],
    [
      'SK-9, SK-10: the skills folder shipped with the demo: a skill loaded, then its resource',
      [
        'assistant → load_skill({"name":"packing-list"})',
        'assistant → load_skill_resource({"skill_name":"packing-list","resource_path":"references/checklist.md"})',
        'assistant: Following the packing-list skill for Oslo, pack: passport, phone charger, toothbrush, a folding umbrella, warm layers, gloves.',
      ],
    ],
    ['TC-4: a streaming tool’s chunks as progress', ['  … plan_itinerary: Day 1: the Alfama and a fado bar', '  … plan_itinerary: Day 3: a tram ride to Sintra']],
    [
      'BT-1, BT-2: an artifact saved, then read back with load_artifacts in another session',
      [
        '  (saved artifact user:notes.md, version 0)',
        'assistant → load_artifacts({"artifact_names":["user:notes.md"]})',
        'assistant: user:notes.md (loaded with load_artifacts) says:',
        '  - buy a Lisboa card at the airport.',
      ],
    ],
    [
      'BT-3, BT-4: memory across two sessions: preload_memory and load_memory',
      [
        '── session "tuesday" of user "ann" ──',
        'assistant → load_memory({"query":"favourite"})',
        'assistant: load_memory found what you told me in an earlier session: "Remember that my favourite city is Lisbon." (preload_memory had already put our earlier conversation in my instructions.)',
      ],
    ],
    [
      'AU-4, AU-9 (#25): an MCP server behind OAuth: the consent link is printed, the user consents on the provider\'s pages, the call resumes with their token',
      [
        'user: Show my calendar for today.',
        'assistant → authorize_calendar({})',
        '  🔑 authorize_calendar is waiting for you to sign in',
        '  authorize_calendar ← {"status":"Authorized: the tools are available now."}',
        'assistant → list_events({"day":"today"})',
        '  list_events ← {"output":"ann\'s calendar today: 09:00 stand-up; 12:30 lunch with Sam; 16:00 train to the airport"}',
      ],
    ],
    ['BT-10: says how to turn on the Gemini-native tool', ['Gemini-native: off (set GEMINI_API_KEY to add web_search with Google Search)']],
  ])('%s', (_feature, expected) => {
    for (const line of expected) expect(lines).toContain(line);
  });

  it('AU-4: the consent link is the local provider\'s authorization URL, with PKCE and the demo\'s callback; the code it comes back with is not printed', () => {
    const link = lines.find((line) => line.startsWith('  🔑 sign in to let authorize_calendar reach your account: '))!.split(': ')[1]!;
    const url = new URL(link);
    expect(url.pathname).toBe('/auth');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = new URL(url.searchParams.get('redirect_uri')!);
    expect(lines).toContain(`ann: signs in on the provider's page and consents; the browser comes back to ${callback.href}`);
    expect(lines.filter((line) => /[?&]code=/.test(line))).toEqual([]);
  });

  it('never shows the raw "requires confirmation" error the model sees', () => {
    expect(lines.filter((line) => /requires confirmation|✗|!/.test(line))).toEqual([]);
  });

  it('prints the whole transcript, as pinned in test/fixtures/offlineTranscript.txt', () => {
    expect(normalised(lines)).toEqual(GOLDEN);
  });

  it.each([['the root README', '../../../README.md'], ['the demo README', '../README.md']])('%s quotes the transcript as the demo prints it', (_readme, path) => {
    const [excerpt] = codeBlocks(readFileSync(new URL(path, import.meta.url), 'utf8'), 'text');
    const quoted = excerpt!.split('\n').slice(0, -1);
    const at = lines.indexOf(quoted[0]!);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at, at + quoted.length)).toEqual(quoted);
  });
});

describe('the scripted demo with other answers', { timeout: 60_000 }, () => {
  it('HC-3, FL-15: a rejected booking and a rejected reimbursement are reported, and nothing runs', async () => {
    const lines = await demoLines({
      script: [
        { session: 's', say: 'Book me 2 nights in Paris.' },
        { session: 's', say: 'Please reimburse $250 for a hotel upgrade.' },
      ],
      decider: { confirmation: () => ({ confirmed: false }), longRunning: ({ interim }) => ({ status: 'rejected', ticketId: interim?.ticketId }) },
      trace: true,
    });
    const transcript = lines.filter((line) => !line.startsWith('  ⌁ '));
    expect(transcript.slice(transcript.indexOf('user: Book me 2 nights in Paris.'))).toEqual([
      'user: Book me 2 nights in Paris.',
      'assistant → book_trip({"city":"Paris","nights":2})',
      '  ⏸ book_trip is waiting for your approval',
      'approver: rejects book_trip({"city":"Paris","nights":2})',
      '  book_trip ✗ error tool "book_trip" call is rejected',
      'assistant: You rejected book_trip, so I did not do it.',
      '',
      'user: Please reimburse $250 for a hotel upgrade.',
      'assistant → ask_for_approval({"purpose":"hotel upgrade","amount":250}) (long-running)',
      '  ⏳ ask_for_approval answers later; for now: {"status":"pending","purpose":"hotel upgrade","amount":250,"ticketId":"reimbursement-ticket-001"}',
      "assistant: Your $250 claim for hotel upgrade needs the manager's approval; ticket reimbursement-ticket-001 is pending.",
      'manager: answers ask_for_approval({"purpose":"hotel upgrade","amount":250}) with {"status":"rejected","ticketId":"reimbursement-ticket-001"}',
      'assistant: The manager rejected your $250 claim for hotel upgrade (reimbursement-ticket-001), so nothing was paid.',
      '',
      '(offline: every answer above came from the demo brain, a scripted model; the tools, servers and stores were real)',
    ]);
    // --trace: the @adkit/otel plugin's spans, the rejected call's among them.
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}⌁ execute_tool book_trip \d+ ms error$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}⌁ invoke_agent assistant \d+ ms completed$/));
  });
});

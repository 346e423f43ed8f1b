// With GEMINI_API_KEY set, the assistant runs on Gemini (the real @google/genai SDK against the
// replay server) and gains web_search: Google Search, a Gemini-native tool, in an agent of its own.
// The assistant's requests declare web_search as a function and never carry googleSearch; the
// search agent's request carries only googleSearch. Bad input tried: none from outside.
import { startReplayServer, type ReplayStep } from '@adkit/replay-server';
import { afterEach, expect, it, onTestFinished, vi } from 'vitest';
import { demoLines } from './support.js';

afterEach(() => void vi.unstubAllEnvs());

/** A Gemini generateContent answer written for this test. */
function gemini(parts: Record<string, unknown>[]): ReplayStep {
  return {
    endpoint: ':generateContent',
    json: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }], modelVersion: 'gemini-2.5-flash' },
  };
}

it('BT-10, AT-6: on Gemini, web_search runs Google Search in its own agent and the answer comes back', { timeout: 60_000 }, async () => {
  const server = await startReplayServer({
    script: [
      gemini([{ functionCall: { name: 'web_search', args: { request: 'weather in San Francisco today' } } }]),
      'gemini--google-search-grounding.json', // the search agent, recorded
      gemini([{ text: 'Mild and partly cloudy in San Francisco, around 69°F.' }]),
    ],
  });
  onTestFinished(() => server.close());
  vi.stubEnv('GOOGLE_GEMINI_BASE_URL', server.geminiBaseUrl);
  const lines = await demoLines({ env: { GEMINI_API_KEY: 'AIza-replay-test' }, script: [{ session: 's', say: 'Search the web: weather in San Francisco today?' }] });
  expect(lines).toContain('model: Gemini gemini-2.5-flash');
  expect(lines).toContain('Gemini-native: web_search (Google Search, on Gemini, as an agent tool)');
  expect(lines.slice(lines.indexOf('user: Search the web: weather in San Francisco today?'))).toEqual([
    'user: Search the web: weather in San Francisco today?',
    'assistant → web_search({"request":"weather in San Francisco today"})',
    '  … web_search › web_search: ## Weather in San Francisco is Mild and Partly Cloudy …',
    expect.stringMatching(/^ {2}web_search ← \{"result":"## Weather in San Francisco is Mild and Partly Cloudy\\n\\n\*\*San Francisco, CA\*\*.*… \(\d+ characters\)$/),
    'assistant: Mild and partly cloudy in San Francisco, around 69°F.',
    '',
    '(model: Gemini gemini-2.5-flash)',
  ]);
  const [assistant, search] = server.requests.map((request) => request.body as { tools?: Record<string, unknown>[] });
  const declared = (assistant!.tools ?? []).flatMap((tool) => ((tool.functionDeclarations as { name: string }[] | undefined) ?? []).map((d) => d.name));
  expect(declared).toContain('web_search');
  expect(assistant!.tools!.some((tool) => 'googleSearch' in tool)).toBe(false);
  expect(search!.tools).toEqual([{ googleSearch: {} }]);
  server.assertDone();
});

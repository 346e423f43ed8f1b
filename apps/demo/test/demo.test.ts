import { describe, expect, it } from 'vitest';
import { modelFromEnv } from '../src/modelFromEnv.js';
import { runDemo } from '../src/runDemo.js';

describe('the demo', () => {
  it('runs offline: parallel tools, an approval, answers worded from the real tool results', async () => {
    const lines: string[] = [];
    const started = performance.now();
    await runDemo({ env: {}, write: (line) => lines.push(line) });
    const timings = lines.filter((l) => /^ {2}\(\d+ ms\)$/.test(l)).map((l) => Number(l.match(/\d+/)![0]));
    expect(lines.filter((l) => !/^ {2}\(\d+ ms\)$/.test(l))).toEqual([
      'adkit demo — model: offline (a scripted model; set OPENAI_API_KEY or GEMINI_API_KEY to use a real one)',
      '',
      "user: What's the weather in Lisbon and Tokyo, and how much is 200 USD in EUR?",
      'travel_desk → get_weather({"city":"Lisbon"})',
      'travel_desk → get_weather({"city":"Tokyo"})',
      'travel_desk → convert_currency({"amount":200,"from":"USD","to":"EUR"})',
      '  get_weather ← {"city":"Lisbon","celsius":21,"sky":"sunny"}',
      '  get_weather ← {"city":"Tokyo","celsius":14,"sky":"cloudy"}',
      '  convert_currency ← {"amount":200,"from":"USD","to":"EUR","converted":184}',
      'travel_desk: Lisbon is 21°C and sunny. Tokyo is 14°C and cloudy. 200 USD is 184 EUR.',
      '',
      'user: Book me 3 nights in Lisbon, please.',
      'travel_desk → book_trip({"city":"Lisbon","nights":3})',
      '  book_trip ← {"error":"error tool \\"book_trip\\" requires confirmation, please approve or reject"}',
      'approver: approves book_trip({"city":"Lisbon","nights":3})',
      '  book_trip ← {"reference":"LIS-1001","city":"Lisbon","nights":3,"status":"confirmed"}',
      'travel_desk: Booked 3 nights in Lisbon; your reference is LIS-1001.',
    ]);
    // Three 150 ms tools ran concurrently: the first turn took well under their 450 ms sum.
    expect(timings[0]).toBeLessThan(400);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('a rejected booking is reported, and nothing is booked', async () => {
    const lines: string[] = [];
    await runDemo({ env: {}, write: (line) => lines.push(line), approve: () => false });
    expect(lines).toContain('approver: rejects book_trip({"city":"Lisbon","nights":3})');
    expect(lines).toContain('  book_trip ← {"error":"error tool \\"book_trip\\" call is rejected"}');
    expect(lines.at(-2)).toBe('travel_desk: I could not book it: error tool "book_trip" call is rejected');
  });
});

describe('modelFromEnv', () => {
  it('prefers OpenAI (with base URL and model overrides), then Gemini, else offline', () => {
    expect(modelFromEnv({}).model).toBeUndefined();
    const openaiChoice = modelFromEnv({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', ADKIT_OPENAI_MODEL: 'llama3', GEMINI_API_KEY: 'g' });
    expect(openaiChoice.model!.model).toBe('llama3');
    expect(openaiChoice.label).toBe('OpenAI llama3 at http://127.0.0.1:1/v1');
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-test' }).model!.model).toBe('gpt-4.1-mini');
    expect(modelFromEnv({ GEMINI_API_KEY: 'g' }).label).toBe('Gemini gemini-2.5-flash');
    expect(modelFromEnv({ GOOGLE_API_KEY: 'g', ADKIT_GEMINI_MODEL: 'gemini-2.0-flash' }).model!.model).toBe('gemini-2.0-flash');
    expect(modelFromEnv({ OPENAI_API_KEY: '' }).model).toBeUndefined();
  });
});

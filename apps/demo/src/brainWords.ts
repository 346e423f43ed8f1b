import type { LlmRequest, LlmResponse } from '@adkit/flow';
import { calls, citiesIn, hasTool, instructionText, says } from './brainRequest.js';
import { NOTES_ARTIFACT } from './notesTool.js';

/** What the demo brain says when it does not recognise the request. */
export const BRAIN_HELP =
  'I am the offline demo brain, so I only understand a few requests: weather and currency ("weather in Lisbon and Tokyo, 200 USD in EUR"), ' +
  '"book 3 nights in Oslo", "reimburse $480 for the client dinner", "5 days of vacation", "summarise: …", "3-day forecast for Oslo", ' +
  '"list the shared folder", "read welcome.txt", "help me pack for Oslo", "plan 3 days in Tokyo", "plan a trip", "save a note: …", "what is in my notes?", ' +
  '"remember that my favourite city is …", "what is my favourite city?", "which pets can I adopt?", "adopt Kitty", "show my calendar". Set OPENAI_API_KEY or GEMINI_API_KEY to talk to a real model.';

/** How much of a message the rules read. */
const MAX_READ = 2_000;

type Rule = (text: string, lower: string, request: LlmRequest, whole: string) => LlmResponse | undefined;

/**
 * The demo brain's first move on a user message: the tool calls a model would make, picked from
 * the user's words by a few fixed rules, tried in order; or a text answer.
 */
export function replyToWords(text: string, request: LlmRequest): LlmResponse {
  // The rules read the first 2,000 characters (a summary request still passes the whole text on).
  const head = text.slice(0, MAX_READ);
  const lower = head.toLowerCase();
  for (const rule of RULES) {
    const reply = rule(head, lower, request, text);
    if (reply) return reply;
  }
  return says(BRAIN_HELP);
}

/** The text after the first colon, or the whole text. */
function afterColon(text: string): string {
  const at = text.indexOf(':');
  return (at >= 0 ? text.slice(at + 1) : text).trim();
}

/** The first number the pattern captures; `undefined` for none, or one too big to be finite. */
function number(pattern: RegExp, text: string): number | undefined {
  const match = pattern.exec(text);
  const value = match ? Number(match[1]) : Number.NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** Calls the tool when the agent has it; else says which tool is missing. */
function use(request: LlmRequest, name: string, args: Record<string, unknown>, missing?: string): LlmResponse {
  return hasTool(request, name) ? calls({ name, args }) : says(missing ?? `That needs the ${name} tool, which I do not have here.`);
}

const summarise: Rule = (_text, lower, request, whole) =>
  /\b(summari[sz]e|tl;?dr)\b/.test(lower) ? use(request, 'summarizer', { request: afterColon(whole) }) : undefined;

const notes: Rule = (text, lower, request) => {
  if (!/\bnotes?\b/.test(lower)) return undefined;
  if (/\b(save|add|write|jot|take)\b/.test(lower)) return use(request, 'save_note', { text: afterColon(text) });
  // load_artifacts lists the session's artifacts in the instruction; ask for the notes if they are there.
  if (!instructionText(request).includes(JSON.stringify(NOTES_ARTIFACT)))
    return says('You have no notes yet. Say "save a note: …" and I will keep one.');
  return use(request, 'load_artifacts', { artifact_names: [NOTES_ARTIFACT] });
};

const remember: Rule = (text, lower) => {
  if (!/^(please )?remember\b|\bremember that\b/.test(lower)) return undefined;
  const fact = text.replace(/^.*?remember( that)?\s*/i, '').replace(/\bmy\b/gi, 'your').replace(/[.!]+$/, '');
  return says(`Noted: ${fact}. I will remember it in your next sessions.`);
};

const recall: Rule = (_text, lower, request) => {
  const topic = /\b(favou?rite)\b/.exec(lower)?.[1] ?? (/\bdo you remember\b/.test(lower) ? 'remember' : undefined);
  return topic ? use(request, 'load_memory', { query: topic }) : undefined;
};

const expenses: Rule = (text, lower, request) => {
  if (!/\b(reimburse|reimbursement|expenses?)\b/.test(lower)) return undefined;
  const amount = number(/\$\s?(\d+(?:\.\d+)?)/, text) ?? number(/(\d+(?:\.\d+)?)\s?(?:dollars|usd)\b/i, text);
  if (amount === undefined) return says('How much should I reimburse, and for what? For example: "reimburse $45 for a taxi".');
  const purpose = /\bfor (?:an? |the |my )?([^.?!]+)/i.exec(text)?.[1]?.trim() ?? 'expenses';
  // ADK's rule: up to $100 is reimbursed at once; more needs the manager first.
  return use(request, amount > 100 ? 'ask_for_approval' : 'reimburse', { purpose, amount });
};

const vacation: Rule = (text, lower, request) => {
  if (!/\b(vacation|holidays?|days? off|time off)\b/.test(lower)) return undefined;
  const days = number(/(\d+)\s*(?:\w+\s)?days?/i, text);
  return days ? use(request, 'request_vacation_days', { days }) : says('How many days of vacation would you like?');
};

const trip: Rule = (text, lower, request) =>
  /\bplan (?:a|my|our) trip\b|\btrip details\b/.test(lower) ? use(request, 'trip_details', { request: text }) : undefined;

const book: Rule = (text, lower, request) => {
  if (!/\bbook\b/.test(lower)) return undefined;
  const [city] = citiesIn(text);
  if (!city) return says('Where should I book? I know Lisbon, Tokyo, Oslo and Paris.');
  return use(request, 'book_trip', { city, nights: number(/(\d+)\s*nights?/i, text) ?? 1 });
};

const forecast: Rule = (text, lower, request) => {
  if (!/\bforecast\b/.test(lower)) return undefined;
  const [city = 'Lisbon'] = citiesIn(text);
  return use(request, 'get_forecast', { city, days: Math.min(5, number(/(\d+)[- ]?days?/i, text) ?? 3) });
};

const itinerary: Rule = (text, lower, request) => {
  if (!/\b(itinerary|plan)\b/.test(lower)) return undefined;
  const [city = 'Lisbon'] = citiesIn(text);
  return use(request, 'plan_itinerary', { city, days: Math.max(1, Math.min(3, number(/(\d+)[- ]?days?/i, text) ?? 3)) });
};

const pack: Rule = (_text, lower, request) => {
  if (!/\bpack(ing)?\b/.test(lower)) return undefined;
  // The skill toolset lists the skills in the instruction; load the one that fits.
  if (!instructionText(request).includes('<name>\npacking-list\n</name>')) return says('I have no packing skill loaded.');
  return use(request, 'load_skill', { name: 'packing-list' });
};

const files: Rule = (text, lower, request) => {
  const names = [...new Set(text.match(/[\w.-]+\.(?:txt|md)\b/g) ?? [])];
  if (names.length === 0 && !/\b(shared folder|folder|files)\b/.test(lower)) return undefined;
  const list = names.length === 0 || /\b(list|folder|what files)\b/.test(lower);
  const wanted = [...(list ? [{ name: 'list_directory', args: { path: '.' } }] : []), ...names.map((path) => ({ name: 'read_text_file', args: { path } }))];
  const missing = wanted.find(({ name }) => !hasTool(request, name));
  return missing ? says(`That needs the ${missing.name} tool of the filesystem MCP server, which I do not have here.`) : calls(...wanted);
};

const search: Rule = (text, lower, request) =>
  /\b(search|look up|news)\b/.test(lower)
    ? use(request, 'web_search', { request: text }, 'Searching the web needs Google Search, a Gemini-native tool: set GEMINI_API_KEY and ask again.')
    : undefined;

const pets: Rule = (text, lower, request) => {
  if (!/\b(pets?|adopt\w*|cats?|dogs?)\b/.test(lower)) return undefined;
  // "adopt Kitty": the name right after "adopt" (a pet's name starts with a capital letter).
  const name = /\b[Aa]dopt\s+([A-Z][a-z]+)\b/.exec(text)?.[1];
  if (name) return use(request, 'adopt_pet', { name });
  const species = /\bcats?\b/.test(lower) ? 'cat' : /\bdogs?\b/.test(lower) ? 'dog' : undefined;
  return use(request, 'list_pets', species ? { species } : {});
};

const calendar: Rule = (_text, lower, request) => {
  if (!/\b(calendar|agenda|schedule|meetings?)\b/.test(lower)) return undefined;
  const day = /\btomorrow\b/.test(lower) ? 'tomorrow' : 'today';
  // Behind OAuth: until the user has signed in, the calendar toolset offers only its consent tool.
  if (hasTool(request, 'list_events')) return calls({ name: 'list_events', args: { day } });
  return use(request, 'authorize_calendar', {}, 'The calendar needs the calendar MCP server, which I do not have here.');
};

const weatherAndMoney: Rule = (text, lower, request) => {
  const wanted: { name: string; args: Record<string, unknown> }[] = [];
  if (/\b(weather|temperature|warm|cold)\b/.test(lower)) for (const city of citiesIn(text)) wanted.push({ name: 'get_weather', args: { city } });
  const money = /(\d+(?:\.\d+)?)\s*(usd|eur|jpy)\b.*?\b(?:in|to|into)\s+(usd|eur|jpy)\b/i.exec(text);
  if (money && Number.isFinite(Number(money[1])))
    wanted.push({ name: 'convert_currency', args: { amount: Number(money[1]), from: money[2]!.toUpperCase(), to: money[3]!.toUpperCase() } });
  const available = wanted.filter(({ name }) => hasTool(request, name));
  return available.length > 0 ? calls(...available) : undefined;
};

/** The rules, in order: the first that answers wins ("save a note: pack the umbrella" is a note). */
const RULES: readonly Rule[] = [summarise, notes, remember, recall, expenses, vacation, trip, book, forecast, itinerary, pack, files, search, pets, calendar, weatherAndMoney];

import type { FunctionCall, FunctionResponse, LlmRequest, LlmResponse } from '@adkit/flow';
import { calls, callsAnswered, citiesIn, hasTool, instructionText, lastUserText, says, type LateAnswer } from './brainRequest.js';
import { WEATHER } from './travelTools.js';

type Response = Record<string, unknown>;

/**
 * The demo brain's move after its tools answered: a next call when one answer leads to another
 * (a loaded skill to its checklist), else an answer worded from the actual results.
 */
export function replyToResults(responses: readonly FunctionResponse[], request: LlmRequest): LlmResponse {
  const [only] = responses;
  if (responses.length === 1 && only!.name === 'load_skill' && !only!.response?.error) {
    const instructions = String(only!.response?.instructions ?? '');
    const resource = /references\/[\w./-]+/.exec(instructions)?.[0];
    if (resource) return calls({ name: 'load_skill_resource', args: { skill_name: only!.response?.skill_name, resource_path: resource } });
  }
  // Signed in: the calendar's tools are listed now, so make the call the consent was for.
  if (responses.length === 1 && only!.name === 'authorize_calendar' && hasTool(request, 'list_events') && !only!.response?.error)
    return calls({ name: 'list_events', args: { day: /\btomorrow\b/i.test(lastUserText(request)) ? 'tomorrow' : 'today' } });
  const answered = callsAnswered(request, responses);
  return says(responses.map((response, i) => describe(response, answered[i], request)).join('\n'));
}

/**
 * The move after late answers: an approved claim leads to `reimburse` with that claim's own
 * arguments (the call the answer names, not the newest one); anything else is told like a result.
 */
export function replyToLateAnswers(answers: readonly LateAnswer[], request: LlmRequest): LlmResponse {
  const payments: { name: string; args: Record<string, unknown> }[] = [];
  const lines: string[] = [];
  for (const { name, response, call } of answers) {
    if (name !== 'ask_for_approval') {
      lines.push(describe({ name, response }, call, request));
      continue;
    }
    const claim = call?.args ?? {};
    if (response.status === 'approved') payments.push({ name: 'reimburse', args: { purpose: claim.purpose, amount: claim.amount } });
    else lines.push(`The manager rejected your $${claim.amount} claim for ${claim.purpose} (${response.ticketId ?? 'no ticket'}), so nothing was paid.`);
  }
  if (payments.length === 0) return says(lines.join('\n'));
  const pay = calls(...payments);
  return lines.length === 0 ? pay : { content: { role: 'model', parts: [{ text: lines.join('\n') }, ...pay.content!.parts!] } };
}

/** The answer after `load_artifacts`: the artifacts follow its response as "Artifact <name> is:" contents. */
export function replyToArtifacts(request: LlmRequest): LlmResponse {
  const shown: string[] = [];
  for (let i = request.contents.length - 1; i >= 0; i--) {
    const [label, body] = request.contents[i]!.parts ?? [];
    const name = /^Artifact (.+) is:$/.exec(label?.text ?? '')?.[1];
    if (!name) break;
    shown.unshift(`${name} (loaded with load_artifacts) says:\n${(body?.text ?? '[not text]').trim()}`);
  }
  return says(shown.join('\n'));
}

function describe({ name, response = {} }: FunctionResponse, call: FunctionCall | undefined, request: LlmRequest): string {
  const r = response as Response;
  if (r.error !== undefined) {
    const error = String(r.error);
    return /call is rejected$/.test(error) ? `You rejected ${name}, so I did not do it.` : `${name} failed: ${error}`;
  }
  switch (name) {
    case 'get_weather':
      return `${r.city} is ${r.celsius}°C and ${r.sky}.`;
    case 'convert_currency':
      return `${r.amount} ${r.from} is ${r.converted} ${r.to}.`;
    case 'book_trip':
      return `Booked ${r.nights} nights in ${r.city}; your reference is ${r.reference}.`;
    case 'ask_for_approval':
      return `Your $${r.amount} claim for ${r.purpose} needs the manager's approval; ticket ${r.ticketId} is pending.`;
    case 'reimburse':
      return `Reimbursed $${r.amount} for ${r.purpose}.`;
    case 'request_vacation_days':
      return r.status === 'Approved.'
        ? `Your manager approved ${r.days_approved} of the ${r.days_requested} vacation days you asked for.`
        : `Your manager did not approve the ${r.days_requested} vacation days.`;
    case 'trip_details':
      return `Your trip: ${r.nights} nights in ${r.destination}. Say "book ${r.nights} nights in ${r.destination}" and I will book it.`;
    case 'summarizer':
      return `The summarizer says: ${r.result}`;
    case 'get_forecast':
      return `The weather MCP server forecasts ${r.output}.`;
    case 'list_directory':
      return `The shared folder holds ${filesIn(r.output)}.`;
    case 'read_text_file': {
      const path = call?.args?.path ?? 'The file';
      return `${String(path)} says: "${String((r.output as Response | undefined)?.content ?? '').trim()}"`;
    }
    case 'plan_itinerary':
      return `Here is your plan:\n${String(r.result ?? '').trim()}`;
    case 'load_memory':
      return recalled(r, request);
    case 'load_skill_resource':
      return packingList(r, request);
    case 'save_note':
      return `Saved to your notes (${r.artifact}, version ${r.version}).`;
    case 'web_search':
      return `From the web: ${r.result}`;
    case 'list_pets': {
      const found = Array.isArray(r.body) ? (r.body as { name: string; species: string; age: number }[]) : [];
      return found.length === 0
        ? 'The pet shop has no pets waiting right now.'
        : `The pet shop's API lists ${found.map((pet) => `${pet.name} (a ${pet.age}-year-old ${pet.species})`).join(', ')}.`;
    }
    case 'authorize_calendar':
      return r.status === 'Pending User Authorization.' ? 'Please sign in to your calendar first: open the link to give your consent.' : `The calendar says: ${String(r.status)}`;
    case 'list_events':
      return `The calendar MCP server (behind OAuth, with your token) says: ${String(r.output ?? '').trim()}.`;
    case 'adopt_pet': {
      const body = r.body as { adopted?: string; species?: string } | undefined;
      return `You adopted ${body?.adopted ?? 'the pet'}, the ${body?.species ?? 'pet'}; the pet shop's API answered ${r.status}.`;
    }
    default:
      return `${name} answered ${JSON.stringify(r)}.`;
  }
}

/** The names in server-filesystem's `list_directory` output ("[FILE] a.txt\n[DIR] b"). */
function filesIn(output: unknown): string {
  const text = String((output as Response | undefined)?.content ?? output ?? '');
  const names = [...text.matchAll(/^\[(?:FILE|DIR)\] (.+)$/gm)].map((match) => match[1]!);
  return names.length > 0 ? names.join(', ') : 'nothing';
}

/** What `load_memory` found about the user's question, and what `preload_memory` had put in the instruction. */
function recalled(r: Response, request: LlmRequest): string {
  const memories = (r.memories as { author?: string; content?: { parts?: { text?: string }[] } }[] | undefined) ?? [];
  const said = memories
    .filter((memory) => memory.author === 'user')
    .map((memory) => (memory.content?.parts ?? []).map((part) => part.text ?? '').join(''))
    .filter(Boolean);
  if (said.length === 0) return 'I found nothing about that in our earlier conversations.';
  const preloaded = instructionText(request).includes('<PAST_CONVERSATIONS>')
    ? ' (preload_memory had already put our earlier conversation in my instructions.)'
    : '';
  return `load_memory found what you told me in an earlier session: "${said[said.length - 1]}"${preloaded}`;
}

/** The packing-list skill's answer: its checklist, plus what the destination's weather needs. */
function packingList(r: Response, request: LlmRequest): string {
  const items = [...String(r.content ?? '').matchAll(/^- (.+)$/gm)].map((match) => match[1]!);
  const [city] = citiesIn(lastUserText(request));
  const weather = city ? WEATHER[city.toLowerCase()] : undefined; // a known city (citiesIn)
  const extra = weather === undefined ? [] : weather.celsius < 10 ? ['warm layers', 'gloves'] : ['sunscreen', 'sunglasses'];
  return `Following the ${r.skill_name} skill${city ? ` for ${city}` : ''}, pack: ${[...items, ...extra].join(', ')}.`;
}

import type { PendingCredentialRequest } from '@adkit/auth';
import type { ConfirmationDecision, PendingConfirmation } from '@adkit/confirmation';
import { createUserContent, errorMessage } from '@adkit/flow';
import { APP_NAME, DemoApp, type Conversation } from './demoApp.js';
import { lineReader } from './lineReader.js';
import type { DemoOutput } from './output.js';
import { pendingWork, type PendingLongRunningCall } from './pendingWork.js';
import type { Style } from './style.js';
import { compact } from './transcript.js';

/** Options of the interactive chat. */
export interface InteractiveOptions {
  env: Readonly<Record<string, string | undefined>>;
  style: Style;
  output: DemoOutput;
  input: NodeJS.ReadableStream;
  /** Repeat each line read after its prompt (when the input is piped, so the transcript shows it). */
  echo: boolean;
  db?: string;
  trace?: boolean;
  /** Ends the input (Ctrl+C): the turn in progress finishes, then the chat closes. */
  signal?: AbortSignal;
}

/** The chat's user; with `--db`, their latest session is resumed. */
export const CHAT_USER = 'you';

const HELP =
  'Type a message. /new starts a new session (memory carries over), /pending lists what waits, /quit leaves.\n' +
  'Try: "book 3 nights in Oslo", "reimburse $480 for the client dinner", "5 days of vacation", "3-day forecast for Oslo", ' +
  '"help me pack for Oslo", "plan 3 days in Tokyo", "save a note: …", "what is in my notes?", "show my calendar".';

/**
 * `npm run demo -- --interactive`: a chat with the assistant. After each turn the chat asks you
 * about what newly waits — approve or reject a call (and edit its payload), or answer a
 * long-running call as the manager, or leave it for later; what you leave for later is asked
 * again only when you type `/pending`. With `--db` it resumes your latest session, pending
 * approvals included.
 */
export async function runInteractive(options: InteractiveOptions): Promise<void> {
  const { output, style } = options;
  const app = await DemoApp.open(options);
  const reader = lineReader(options.input);
  const stop = () => reader.close();
  options.signal?.addEventListener('abort', stop, { once: true });
  const ask = async (prompt: string): Promise<string | undefined> => {
    output.prompt(style.user(prompt));
    const line = await reader.next();
    if (options.echo) output.line(line ?? '');
    return line;
  };
  // What you left for later stays there until you type /pending: it is not asked again after every turn.
  const deferred = new Set<string>();
  const answer = (conversation: Conversation, includeDeferred = false) =>
    answerWhatWaits(app, conversation, ask, output, style, { deferred, includeDeferred });
  try {
    for (const line of app.header()) output.line(line);
    output.line(style.dim(HELP));
    let conversation = await startConversation(app, output);
    if (!(await answer(conversation))) return;
    while (true) {
      const text = (await ask('you> '))?.trim();
      if (text === undefined || text === '/quit' || text === '/exit') break;
      if (text === '') continue;
      if (text === '/help') output.line(style.dim(HELP));
      else if (text === '/new') {
        conversation = { userId: CHAT_USER, sessionId: await nextSessionId(app) };
        deferred.clear();
        output.line(style.dim(`(new session ${conversation.sessionId})`));
      } else if (text === '/pending') {
        const { confirmations, longRunning, credentials } = await app.pending(conversation);
        const names = [...confirmations.map((c) => c.originalCall.name), ...credentials.map((c) => `${c.originalCall.name} (sign in)`), ...longRunning.map((l) => l.call.name)];
        output.line(style.dim(`(waiting: ${names.join(', ') || 'nothing'})`));
        if (!(await answer(conversation, true))) break;
      } else {
        try {
          await app.turn(conversation, createUserContent(text));
        } catch (error) {
          output.line(style.error(`(the turn failed: ${errorMessage(error)})`));
        }
        if (!(await answer(conversation))) break;
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    reader.close();
    await app.close();
  }
}

type Ask = (prompt: string) => Promise<string | undefined>;

/** Resumes the user's latest session (with `--db` there may be one), or starts `chat-1`. */
async function startConversation(app: DemoApp, output: DemoOutput): Promise<Conversation> {
  const sessions = await app.runner.sessionService.listSessions({ appName: APP_NAME, userId: CHAT_USER });
  const latest = sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime)[0];
  if (!latest) {
    output.line('(session chat-1)');
    return { userId: CHAT_USER, sessionId: 'chat-1' };
  }
  const full = await app.runner.sessionService.getSession({ appName: APP_NAME, userId: CHAT_USER, sessionId: latest.id });
  const { confirmations, longRunning, credentials } = await pendingWork(full);
  const waiting = [
    ...confirmations.map((c) => `${c.originalCall.name} (for you)`),
    ...credentials.map((c) => `${c.originalCall.name} (for you to sign in)`),
    ...longRunning.map((l) => `${l.call.name} (for the manager)`),
  ];
  output.line(`(resuming session ${latest.id}: ${full?.events.length ?? 0} events${waiting.length > 0 ? `; waiting: ${waiting.join(', ')}` : ''})`);
  return { userId: CHAT_USER, sessionId: latest.id };
}

async function nextSessionId(app: DemoApp): Promise<string> {
  const taken = new Set((await app.runner.sessionService.listSessions({ appName: APP_NAME, userId: CHAT_USER })).map((s) => s.id));
  let n = 1;
  while (taken.has(`chat-${n}`)) n++;
  return `chat-${n}`;
}

/** What `answerWhatWaits` remembers across turns. */
interface WaitingOptions {
  /** Call ids left for later: not asked about again until `/pending`. Updated in place. */
  deferred: Set<string>;
  /** `/pending`: ask about the deferred ones too (each once). */
  includeDeferred: boolean;
}

/**
 * Asks about what waits, one call at a time, each named on its prompt, until nothing is left to
 * ask: what you leave for later is said so, and asked again only on `/pending`. False when the
 * input ended (the chat then stops; with `--db` it all still waits).
 */
async function answerWhatWaits(app: DemoApp, conversation: Conversation, ask: Ask, output: DemoOutput, style: Style, options: WaitingOptions): Promise<boolean> {
  const { deferred, includeDeferred } = options;
  const asked = new Set<string>();
  while (true) {
    const { confirmations, longRunning, credentials } = await app.pending(conversation);
    const waitingIds = new Set([...confirmations, ...credentials, ...longRunning].map((entry) => entry.call.id ?? ''));
    for (const id of deferred) if (!waitingIds.has(id)) deferred.delete(id); // answered elsewhere (another process, the dev UI)
    const open = (id: string | undefined) => !asked.has(id ?? '') && (includeDeferred || !deferred.has(id ?? ''));
    const request = confirmations.find((c) => open(c.call.id));
    const consent = request ? undefined : credentials.find((c) => open(c.call.id));
    const call = request || consent ? undefined : longRunning.find((l) => open(l.call.id));
    if (!request && !consent && !call) {
      // A reminder of what was left for later in an earlier pass (not of what was just left).
      const leftOver = (id: string | undefined) => deferred.has(id ?? '') && !asked.has(id ?? '');
      const later = [
        ...confirmations.filter((c) => leftOver(c.call.id)).map((c) => c.originalCall.name),
        ...credentials.filter((c) => leftOver(c.call.id)).map((c) => c.originalCall.name),
        ...longRunning.filter((l) => leftOver(l.call.id)).map((l) => l.call.name),
      ];
      if (later.length > 0) output.line(style.dim(`(left for later: ${later.join(', ')}; /pending asks again)`));
      return true;
    }
    const id = (request?.call.id ?? consent?.call.id ?? call?.call.id) ?? '';
    asked.add(id);
    if (consent) {
      const given = await askConsent(app, conversation, consent, ask, output, style);
      if (given === 'ended') {
        output.line(style.dim('(input ended; what waits stays in the session: run again with the same --db to answer it)'));
        return false;
      }
      if (given === 'later') {
        deferred.add(id);
        output.line(style.dim(`(${consent.originalCall.name} waits for you to sign in: type /pending to answer it)`));
        continue;
      }
      deferred.delete(id);
      try {
        await app.consent(conversation, consent, given);
      } catch (error) {
        output.line(style.error(`(the turn failed: ${errorMessage(error)})`));
        return true;
      }
      continue;
    }
    const answer = request ? await askConfirmation(request, ask, output, style) : await askManager(call!, ask, output, style);
    if (answer === 'ended') {
      output.line(style.dim('(input ended; what waits stays in the session: run again with the same --db to answer it)'));
      return false;
    }
    if (answer === 'later') {
      deferred.add(id);
      const { name, args = {} } = request ? request.originalCall : call!.call;
      output.line(style.dim(`(${name}(${compact(args)}) waits for later: type /pending to answer it)`));
      continue;
    }
    deferred.delete(id);
    try {
      if (request) await app.confirm(conversation, request, answer as ConfirmationDecision);
      else await app.answer(conversation, call!, answer as Record<string, unknown>);
    } catch (error) {
      output.line(style.error(`(the turn failed: ${errorMessage(error)})`));
      return true;
    }
  }
}

/** Reads yes, no or later, explaining any other answer; `undefined` when the input ended. */
async function yesNoLater(ask: Ask, prompt: string, output: DemoOutput, style: Style): Promise<'yes' | 'no' | 'later' | undefined> {
  while (true) {
    const line = await ask(prompt);
    if (line === undefined) return undefined;
    const word = line.trim().toLowerCase();
    if (/^(y|yes|approve|ok)$/.test(word)) return 'yes';
    if (/^(n|no|reject)$/.test(word)) return 'no';
    if (/^(l|later|skip)$/.test(word)) return 'later';
    output.line(style.error(`(${JSON.stringify(line.trim())} is not an answer here: type y to approve, n to reject, or l to leave it for later)`));
  }
}

async function askConfirmation(request: PendingConfirmation, ask: Ask, output: DemoOutput, style: Style): Promise<ConfirmationDecision | 'later' | 'ended'> {
  const { name, args = {} } = request.originalCall;
  const choice = await yesNoLater(ask, `approve ${name}(${compact(args)})? [y]es / [n]o / [l]ater: `, output, style);
  if (choice === undefined) return 'ended';
  if (choice === 'later') return 'later';
  if (choice === 'no') return { confirmed: false };
  if (request.payload === undefined) return { confirmed: true };
  while (true) {
    const line = await ask(`payload ${compact(request.payload)} (Enter keeps it, or type JSON): `);
    if (line === undefined) return 'ended';
    if (line.trim() === '') return { confirmed: true, payload: request.payload };
    try {
      return { confirmed: true, payload: JSON.parse(line) as unknown };
    } catch (error) {
      output.line(style.error(`(not JSON: ${errorMessage(error)})`));
    }
  }
}

/**
 * Shows the consent link and reads the URL the provider sent the browser back to; `/consent`
 * signs in for you on the demo's provider (as the chat's user) instead, `l` leaves it for later.
 */
async function askConsent(
  app: DemoApp,
  conversation: Conversation,
  request: PendingCredentialRequest,
  ask: Ask,
  output: DemoOutput,
  style: Style,
): Promise<string | 'later' | 'ended'> {
  const { name } = request.originalCall;
  output.line(style.waiting(`🔑 sign in to let ${name} reach your account: ${request.authUri ?? '(no link)'}`));
  output.line(style.dim(`(open the link, sign in with any name and password, consent, then paste the address the browser lands on; /consent does it for you, l leaves it for later)`));
  while (true) {
    const line = (await ask('redirect URL, /consent or [l]ater: '))?.trim();
    if (line === undefined) return 'ended';
    if (/^(l|later|skip)$/i.test(line)) return 'later';
    if (line === '/consent') {
      try {
        const uri = await app.consentInBrowser(conversation, request);
        output.line(style.dim(`(signed in as "${conversation.userId}" on the demo's provider and consented)`));
        return uri;
      } catch (error) {
        output.line(style.error(`(the consent failed: ${errorMessage(error)})`));
        continue;
      }
    }
    if (request.redirectUri && line.startsWith(request.redirectUri) && URL.canParse(line)) return line;
    output.line(style.error(`(that is not the address the provider sends you back to: it starts with ${request.redirectUri ?? 'the app\'s callback'})`));
  }
}

async function askManager(pending: PendingLongRunningCall, ask: Ask, output: DemoOutput, style: Style): Promise<Record<string, unknown> | 'later' | 'ended'> {
  const { name, args = {} } = pending.call;
  output.line(style.waiting(`${name} waits for the manager${pending.interim ? `: ${compact(pending.interim)}` : ''}`));
  const choice = await yesNoLater(ask, `as the manager, approve ${name}(${compact(args)})? [y]es / [n]o / [l]ater: `, output, style);
  if (choice === undefined) return 'ended';
  if (choice === 'later') return 'later';
  const ticket = pending.interim?.ticketId;
  return { status: choice === 'yes' ? 'approved' : 'rejected', ...(ticket ? { ticketId: ticket } : {}) };
}

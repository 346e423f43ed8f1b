import { REQUEST_CONFIRMATION_FUNCTION, REQUEST_CREDENTIAL_FUNCTION, taskOpeningOf, type Event, type Part, type ToolProgress } from '@adkit/flow';
import type { Style } from './style.js';

/** One line to show: a lasting `line`, or a `progress` report a terminal may redraw in place. */
export interface TranscriptLine {
  kind: 'line' | 'progress';
  text: string;
}

/** The longest argument or result shown, in characters; longer ones are cut and say their size. */
const MAX_VALUE_LENGTH = 200;
const BAR_WIDTH = 10;

/**
 * Renders a run's events as a readable transcript: who speaks, each tool call with its arguments,
 * each result, calls waiting for approval (never the raw "requires confirmation" error the model
 * sees), long-running calls, saved artifacts, and progress reports of streaming, MCP and agent
 * tools. It remembers which calls are long-running, so keep one per conversation.
 */
export class Transcript {
  private readonly longRunning = new Set<string>();

  constructor(private readonly style: Style) {}

  /** The lines for one event (none for bookkeeping events and streamed model text). */
  lines(event: Event): TranscriptLine[] {
    const { style } = this;
    if (event.partial) return event.toolProgress ? this.progress(event.toolProgress) : [];
    if (event.errorCode) return [line(style.error(`${event.author} ! ${event.errorCode}: ${event.errorMessage ?? ''}`))];
    for (const id of event.longRunningToolIds ?? []) this.longRunning.add(id);
    // A task's first turn (#27): the call's request, handed to the task agent, not something the user said.
    const task = taskOpeningOf(event);
    if (task) return [line(style.dim(`  ↳ ${task.agent} takes over the conversation until its task is done`))];
    const out: TranscriptLine[] = [];
    for (const part of event.content?.parts ?? []) out.push(...this.part(event, part));
    for (const [name, version] of Object.entries(event.actions?.artifactDelta ?? {}))
      out.push(line(style.dim(`  (saved artifact ${name}, version ${version})`)));
    return out;
  }

  private part(event: Event, part: Part): TranscriptLine[] {
    const { style } = this;
    const who = style.agent(event.author);
    if (part.functionCall) {
      const call = part.functionCall;
      // The flow's own requests are shown by what waits (the approval, the consent link), not as calls.
      if (call.name === REQUEST_CONFIRMATION_FUNCTION || call.name === REQUEST_CREDENTIAL_FUNCTION) return [];
      const background = call.id && event.longRunningToolIds?.includes(call.id) ? style.dim(' (long-running)') : '';
      return [line(`${who} → ${style.call(`${call.name}(${compact(call.args ?? {})})`)}${background}`)];
    }
    if (part.functionResponse) {
      const { id, name, response = {} } = part.functionResponse;
      if (name === REQUEST_CONFIRMATION_FUNCTION || name === REQUEST_CREDENTIAL_FUNCTION) return [];
      if (id && event.actions?.requestedAuthConfigs?.[id]) return [line(style.waiting(`  🔑 ${name} is waiting for you to sign in`))];
      const requested = id ? event.actions?.requestedToolConfirmations?.[id] : undefined;
      if (requested) {
        // A payload asks the approver to fill something in; the hint that comes with it says what.
        const hint = requested.payload !== undefined && requested.hint ? `: ${requested.hint}` : '';
        return [line(style.waiting(`  ⏸ ${name} is waiting for your approval${hint}`))];
      }
      if (Object.hasOwn(response, 'error')) return [line(style.error(`  ${name} ✗ ${String(response.error)}`))];
      if (id && this.longRunning.has(id) && event.author !== 'user')
        return [line(style.waiting(`  ⏳ ${name} answers later; for now: ${compact(response)}`))];
      return [line(`  ${name} ← ${style.result(compact(response))}`)];
    }
    if (part.text !== undefined && !part.thought && part.text.trim() !== '') {
      const [first, ...rest] = part.text.trim().split('\n');
      return [line(`${who}: ${style.answer(first!)}`), ...rest.map((text) => line(`  ${style.answer(text)}`))];
    }
    return [];
  }

  private progress(report: ToolProgress): TranscriptLine[] {
    const { style } = this;
    const head = `  … ${report.toolName}`;
    if (report.event) {
      // An agent tool's child at work: what it says and calls, one line each.
      const child = report.event;
      return (child.content?.parts ?? []).flatMap((part): TranscriptLine[] => {
        if (part.functionCall) return [progress(style.dim(`${head} › ${child.author} → ${part.functionCall.name}(${compact(part.functionCall.args ?? {})})`))];
        if (part.functionResponse) return [progress(style.dim(`${head} › ${part.functionResponse.name} ← ${compact(part.functionResponse.response ?? {})}`))];
        if (part.text && !part.thought) return [progress(style.dim(`${head} › ${child.author}: ${firstLine(part.text)}`))];
        return [];
      });
    }
    const message = report.message?.trim() ?? '';
    if (report.fraction !== undefined) return [progress(style.dim(`${head} ${bar(report.fraction)}${message ? ` ${message}` : ''}`))];
    return message ? [progress(style.dim(`${head}: ${firstLine(message)}`))] : [];
  }
}

function line(text: string): TranscriptLine {
  return { kind: 'line', text };
}

function progress(text: string): TranscriptLine {
  return { kind: 'progress', text };
}

/** `[######----]  60%` */
export function bar(fraction: number): string {
  const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const filled = Math.round(clamped * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.round(clamped * 100)).padStart(3)}%`;
}

/** JSON on one line, cut at `MAX_VALUE_LENGTH` characters with its full size said. */
export function compact(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = String(value);
  }
  return json.length <= MAX_VALUE_LENGTH ? json : `${json.slice(0, MAX_VALUE_LENGTH)}… (${json.length} characters)`;
}

function firstLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines.length > 1 ? `${lines[0]} …` : lines[0]!;
}

import type { FunctionResponse, LlmRequest, Part } from '@adkit/flow';
import type { McpMedia } from './formatContent.js';

/** What the inline-media rule decides on: one image or audio block, and the model of the step. */
export interface InlineMediaInfo {
  readonly kind: 'image' | 'audio';
  readonly mimeType: string;
  /** The model the request goes to (`LlmRequest.model`), `''` when unknown. */
  readonly model: string;
}

/**
 * Which images and audio of MCP results also reach the model as inline data: `true` all, `false`
 * none (the model reads only their labels), or a function deciding per block. The default
 * (`defaultInlineMedia`) sends images to every model and audio to Gemini models only.
 */
export type InlineMediaRule = boolean | ((media: InlineMediaInfo) => boolean);

/**
 * The default rule: images go to every model (both adapters take inline images), audio only to
 * models whose name contains "gemini" (the OpenAI adapter refuses inline audio in a user turn).
 */
export function defaultInlineMedia(media: InlineMediaInfo): boolean {
  return media.kind === 'image' || (media.kind === 'audio' && /gemini/i.test(media.model));
}

/** Results whose media wait for the next request, and their total size, are bounded. */
const MAX_ENTRIES = 32;
const MAX_BYTES = 32 * 1024 * 1024;

interface ShelfEntry {
  readonly invocationId: string;
  /** The name the model called (with a prefix, if any). */
  readonly toolName: string;
  /** The result's `output` as text, to find its function response when the call id is gone. */
  readonly fingerprint: string;
  readonly media: readonly McpMedia[];
  readonly size: number;
}

/** The call a result belongs to, as the tool's context tells it. */
export interface ShelfCall {
  readonly functionCallId: string;
  readonly invocationId: string;
  readonly toolName: string;
}

/**
 * Keeps the images and audio of recent MCP results and hands them to the model in the next step:
 * `attach` adds, after the function responses of the current turn, one user content with each
 * call's media as `inlineData` parts (those the rule lets through). A response is matched by its
 * call id, or — when the flow removed its own `adk-` ids from the request — by invocation, tool
 * name and output. Only the turn right after the call gets the media; later steps, other agents
 * and a run resumed in another process see the text labels in the function response. Bounded to
 * 32 results and 32 MB.
 */
export class MediaShelf {
  private readonly entries = new Map<string, ShelfEntry>();
  private bytes = 0;
  private unnamed = 0;

  constructor(private readonly rule: InlineMediaRule) {}

  /** Keeps a call's media (nothing when the rule is `false`, the call has none or they are too big). */
  put(call: ShelfCall, output: unknown, media: readonly McpMedia[]): void {
    if (this.rule === false || media.length === 0) return;
    let size = 0;
    for (const item of media) size += item.data.length;
    if (size > MAX_BYTES) return;
    const key = call.functionCallId || `#${++this.unnamed}`;
    this.remove(key);
    for (const [id] of this.entries) {
      if (this.entries.size < MAX_ENTRIES && this.bytes + size <= MAX_BYTES) break;
      this.remove(id);
    }
    this.entries.set(key, { invocationId: call.invocationId, toolName: call.toolName, fingerprint: fingerprint(output), media, size });
    this.bytes += size;
  }

  /** Inserts the kept media of the current turn's function responses into the request. */
  attach(invocationId: string, request: LlmRequest): void {
    if (this.entries.size === 0) return;
    const model = request.model ?? '';
    const contents = request.contents;
    const used = new Set<string>();
    for (let i = contents.length - 1; i >= 0; i--) {
      const content = contents[i]!;
      if (content.role === 'model') break;
      const parts: Part[] = [];
      for (const part of content.parts ?? []) {
        const response = part.functionResponse;
        if (!response) continue;
        const found = this.find(invocationId, response, used);
        if (!found) continue;
        const [key, entry] = found;
        used.add(key);
        const allowed = entry.media.filter((item) => this.allows(item, model));
        if (allowed.length === 0) continue;
        parts.push({ text: `[MCP media returned by ${entry.toolName}${response.id ? ` (call ${response.id})` : ''}]` });
        for (const item of allowed) parts.push({ inlineData: { mimeType: item.mimeType, data: item.data } });
      }
      if (parts.length > 0) contents.splice(i + 1, 0, { role: 'user', parts });
    }
  }

  /** Forgets everything kept. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private find(invocationId: string, response: FunctionResponse, used: ReadonlySet<string>): [string, ShelfEntry] | undefined {
    if (response.id !== undefined) {
      const entry = this.entries.get(response.id);
      if (entry) return used.has(response.id) ? undefined : [response.id, entry];
    }
    let print: string | undefined;
    for (const [key, entry] of this.entries) {
      if (used.has(key) || entry.invocationId !== invocationId || entry.toolName !== response.name) continue;
      print ??= fingerprint(response.response?.output);
      if (entry.fingerprint === print) return [key, entry];
    }
    return undefined;
  }

  private allows(item: McpMedia, model: string): boolean {
    const rule = this.rule;
    if (typeof rule === 'boolean') return rule;
    return rule({ kind: item.kind, mimeType: item.mimeType, model });
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.size;
  }
}

function fingerprint(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output) ?? '';
  } catch {
    return '';
  }
}

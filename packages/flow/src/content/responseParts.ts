import type { Blob, FileData } from './content.js';

/**
 * A part a function response carries beside its JSON `response` (genai's `FunctionResponsePart`):
 * an image, audio, a PDF or another file, as inline bytes or a file reference. Gemini gets them in
 * `FunctionResponse.parts`; the OpenAI adapter sends them in the Responses API's
 * `function_call_output` content, or (Chat Completions) in a user message after the tool messages.
 */
export interface FunctionResponsePart {
  inlineData?: Blob;
  fileData?: FileData;
}

// A registered symbol: a second copy of @adkit/flow (a pack's own) marks results the same way.
const RESPONSE_PARTS: unique symbol = Symbol.for('adkit.responseParts') as never;

/**
 * The tool's result with parts for its function response beside it, e.g.
 * `return withResponseParts({chart: 'sales.png'}, [{inlineData: {mimeType: 'image/png', data}}])`.
 * The parts ride on the result object (a hidden key JSON never sees), so the result stays what it
 * was for everything else; the flow takes them off when it builds the function response.
 */
export function withResponseParts<T extends object>(result: T, parts: readonly FunctionResponsePart[]): T {
  Object.defineProperty(result, RESPONSE_PARTS, { value: parts, enumerable: false, configurable: true });
  return result;
}

/** The parts `withResponseParts` put on a tool's result, or `undefined`. */
export function responsePartsOf(result: unknown): readonly FunctionResponsePart[] | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  return (result as { [RESPONSE_PARTS]?: readonly FunctionResponsePart[] })[RESPONSE_PARTS];
}

/** Most parts one response may carry. */
export const MAX_RESPONSE_PARTS = 32;

/**
 * The parts as the flow stores them (copied, only the known fields), or the reason they cannot be
 * sent: not a list, too many, a part that is neither inline data with a media type and base64
 * bytes nor a file reference with a media type and a URI.
 */
export function checkedResponseParts(toolName: string, parts: unknown): FunctionResponsePart[] | Error {
  const problem = (what: string) =>
    new Error(`Tool "${toolName}" returned response parts that cannot be sent: ${what}. Give each part inlineData {mimeType, data (base64)} or fileData {mimeType, fileUri}.`);
  if (!Array.isArray(parts)) return problem('they are not a list');
  if (parts.length > MAX_RESPONSE_PARTS) return problem(`${parts.length} parts, more than ${MAX_RESPONSE_PARTS}`);
  const checked: FunctionResponsePart[] = [];
  for (const [i, part] of parts.entries()) {
    const inline = (part as FunctionResponsePart | null)?.inlineData;
    const file = (part as FunctionResponsePart | null)?.fileData;
    if (inline && typeof inline.mimeType === 'string' && inline.mimeType && typeof inline.data === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(inline.data)) {
      checked.push({ inlineData: { mimeType: inline.mimeType, data: inline.data, ...(typeof inline.displayName === 'string' ? { displayName: inline.displayName } : {}) } });
    } else if (file && typeof file.mimeType === 'string' && file.mimeType && typeof file.fileUri === 'string' && file.fileUri) {
      checked.push({ fileData: { mimeType: file.mimeType, fileUri: file.fileUri, ...(typeof file.displayName === 'string' ? { displayName: file.displayName } : {}) } });
    } else return problem(`part ${i} has neither`);
  }
  return checked;
}

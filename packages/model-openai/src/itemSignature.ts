/**
 * Responses API output items that must go back with the history, stored in a part's
 * `thoughtSignature` (an opaque string adkit persists with the part) as `openai-responses:` + JSON:
 * - a reasoning item, whole (`id`, `encrypted_content`, `summary`), on a thought part;
 * - a message item's `id` and `phase`, on its text parts;
 * - a function call item's `id` (`fc_…`), on its function-call part.
 * Other signatures (Gemini's) are ignored by this adapter, and the Gemini adapter leaves these out.
 */
export const SIGNATURE_PREFIX = 'openai-responses:';

/** What a signature holds. */
export type ItemSignature =
  | { type: 'reasoning'; id: string; encrypted_content?: string | null; summary: Array<{ type: 'summary_text'; text: string }> }
  | { type: 'message'; id: string; phase?: string | null }
  | { type: 'function_call'; id: string };

/** Encodes an item signature. */
export function encodeItemSignature(item: ItemSignature): string {
  return SIGNATURE_PREFIX + JSON.stringify(item);
}

/** Decodes a signature this adapter wrote; `undefined` for any other (or a damaged one). */
export function decodeItemSignature(signature: string | undefined): ItemSignature | undefined {
  if (!signature?.startsWith(SIGNATURE_PREFIX)) return undefined;
  try {
    const item = JSON.parse(signature.slice(SIGNATURE_PREFIX.length)) as ItemSignature;
    if (typeof item !== 'object' || item === null || typeof item.id !== 'string') return undefined;
    if (item.type === 'reasoning' && !Array.isArray(item.summary)) return undefined;
    return ['reasoning', 'message', 'function_call'].includes(item.type) ? item : undefined;
  } catch {
    return undefined;
  }
}

import type { Part } from '@adkit/flow';

/**
 * Responses API output items that must go back with the history, kept in a part's
 * `partMetadata` under this key (saved with the session, never shown to the model as content):
 * - a reasoning item, whole (`id`, `encrypted_content`, `summary`), on a thought part;
 * - a message item's `id` and `phase`, on its text parts;
 * - a function call item's `id` (`fc_…`), on its function-call part.
 */
export const RESPONSES_ITEM_KEY = 'openaiResponsesItem';

/** What a part keeps of its output item. */
export type ResponsesItem =
  | { type: 'reasoning'; id: string; encrypted_content?: string | null; summary: Array<{ type: 'summary_text'; text: string }> }
  | { type: 'message'; id: string; phase?: string | null }
  | { type: 'function_call'; id: string };

/** The part with its output item kept in `partMetadata`. */
export function withResponsesItem(part: Part, item: ResponsesItem): Part {
  return { ...part, partMetadata: { ...part.partMetadata, [RESPONSES_ITEM_KEY]: item } };
}

/** The output item a part keeps; `undefined` when it keeps none (or a damaged one). */
export function responsesItemOf(part: Part): ResponsesItem | undefined {
  const item = part.partMetadata?.[RESPONSES_ITEM_KEY] as ResponsesItem | undefined;
  if (typeof item !== 'object' || item === null || typeof item.id !== 'string') return undefined;
  if (item.type === 'reasoning' && !Array.isArray(item.summary)) return undefined;
  return ['reasoning', 'message', 'function_call'].includes(item.type) ? item : undefined;
}

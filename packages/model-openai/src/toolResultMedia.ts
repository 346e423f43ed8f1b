import type { Part } from '@adkit/flow';
import type { ToolResults } from './history.js';

/**
 * What Chat Completions gets of the parts beside tool results (images, PDFs), which a `tool`
 * message cannot carry: for each result with parts, a line naming the tool and call, then its
 * parts; sent as one user message right after the tool messages. Empty when no result has parts.
 */
export function toolResultMedia(results: ToolResults['results']): Part[] {
  const media: Part[] = [];
  for (const result of results) {
    if (!result.parts) continue;
    media.push({ text: `[Returned by ${result.name} (call ${result.callId}) beside its result:]` }, ...result.parts);
  }
  return media;
}

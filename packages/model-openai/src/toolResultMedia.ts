import type { Part } from '@adkit/flow';
import type { ToolResults } from './history.js';
import { partAsText, userPieces } from './userParts.js';

/**
 * The parts beside a tool result as OpenAI can take them: images (inline or by URL) and PDFs
 * (inline; by URL only in the Responses API) as they are, anything else (audio, other files) as a
 * text label: the tool did not choose the model, so a part this provider cannot read must not make
 * every later request fail.
 */
export function sendableParts(parts: readonly Part[], model: string, api: 'chat' | 'responses'): Part[] {
  return parts.map((part) => {
    try {
      const [piece] = userPieces([part], model);
      if (api === 'chat' && piece?.kind === 'file' && !piece.data) return { text: partAsText(part)! };
      return part;
    } catch {
      return { text: partAsText(part) ?? '[a part this model cannot take]' };
    }
  });
}

/**
 * What Chat Completions gets of the parts beside tool results (images, PDFs), which a `tool`
 * message cannot carry: for each result with parts, a line naming the tool and call, then its
 * parts; sent as one user message right after the tool messages. Empty when no result has parts.
 */
export function toolResultMedia(results: ToolResults['results'], model: string): Part[] {
  const media: Part[] = [];
  for (const result of results) {
    if (!result.parts) continue;
    media.push({ text: `[Returned by ${result.name} (call ${result.callId}) beside its result:]` }, ...sendableParts(result.parts, model, 'chat'));
  }
  return media;
}

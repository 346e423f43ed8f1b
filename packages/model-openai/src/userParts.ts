import type { Part } from '@adkit/flow';
import { UnsupportedRequestError } from './errors.js';

/** A user-turn part in a provider-neutral form, before the API-specific shape. */
export type UserPiece =
  | { kind: 'text'; text: string }
  | { kind: 'image'; url: string }
  | { kind: 'file'; filename: string; data?: string; url?: string };

function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

/**
 * The pieces of a user turn: text, images (inline or by URL) and PDF files. Anything else
 * (audio, video, other file types) is refused with a message naming the type and what to do.
 */
export function userPieces(parts: readonly Part[], model: string): UserPiece[] {
  const pieces: UserPiece[] = [];
  for (const part of parts) {
    if (part.thought) continue;
    if (part.text !== undefined) pieces.push({ kind: 'text', text: part.text });
    else if (part.inlineData) {
      const mimeType = part.inlineData.mimeType ?? '';
      const data = part.inlineData.data ?? '';
      if (mimeType.startsWith('image/')) pieces.push({ kind: 'image', url: dataUrl(mimeType, data) });
      else if (mimeType === 'application/pdf')
        pieces.push({ kind: 'file', filename: part.inlineData.displayName ?? 'document.pdf', data: dataUrl(mimeType, data) });
      else throw unsupported(model, `inline data of type "${mimeType || 'unknown'}"`);
    } else if (part.fileData) {
      const mimeType = part.fileData.mimeType ?? '';
      const uri = part.fileData.fileUri ?? '';
      if (mimeType.startsWith('image/') && /^(https?|data):/.test(uri)) pieces.push({ kind: 'image', url: uri });
      else if (mimeType === 'application/pdf' && /^https?:/.test(uri))
        pieces.push({ kind: 'file', filename: part.fileData.displayName ?? 'document.pdf', url: uri });
      else throw unsupported(model, `a file of type "${mimeType || 'unknown'}" at "${uri}"`);
    } else {
      const text = partAsText(part);
      if (text !== undefined) pieces.push({ kind: 'text', text });
    }
  }
  return pieces;
}

function unsupported(model: string, what: string): UnsupportedRequestError {
  return new UnsupportedRequestError(
    'UNSUPPORTED_CONTENT',
    `OpenAI model "${model}" cannot take ${what}; send images (inline or http URLs) or PDFs, or describe the content as text.`,
  );
}

/**
 * Parts with no OpenAI equivalent that still carry meaning (Gemini code execution, media a model
 * produced), written out as text so the history keeps them.
 */
export function partAsText(part: Part): string | undefined {
  if (part.executableCode) return `Code (${(part.executableCode.language ?? '').toLowerCase() || 'unknown'}):\n${part.executableCode.code ?? ''}`;
  if (part.codeExecutionResult)
    return `Code execution result (${part.codeExecutionResult.outcome ?? 'unknown'}):\n${part.codeExecutionResult.output ?? ''}`;
  if (part.inlineData) return `[inline data: ${part.inlineData.mimeType ?? 'unknown type'}]`;
  if (part.fileData) return `[file: ${part.fileData.fileUri ?? ''} (${part.fileData.mimeType ?? 'unknown type'})]`;
  return undefined;
}

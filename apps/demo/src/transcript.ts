import { REQUEST_CONFIRMATION_FUNCTION, type Event } from '@adkit/flow';

/** The lines of a transcript for one event; progress and streamed chunks are not shown. */
export function transcriptLines(event: Event): string[] {
  if (event.partial) return [];
  if (event.errorCode) return [`${event.author} ! ${event.errorCode}: ${event.errorMessage ?? ''}`];
  const lines: string[] = [];
  for (const part of event.content?.parts ?? []) {
    if (part.functionCall) {
      if (part.functionCall.name === REQUEST_CONFIRMATION_FUNCTION) continue;
      lines.push(`${event.author} → ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`);
    } else if (part.functionResponse) {
      if (part.functionResponse.name === REQUEST_CONFIRMATION_FUNCTION) continue;
      lines.push(`  ${part.functionResponse.name} ← ${JSON.stringify(part.functionResponse.response ?? {})}`);
    } else if (part.text && !part.thought) {
      lines.push(`${event.author}: ${part.text}`);
    }
  }
  return lines;
}

/** The note a long-running tool's declared description carries (FT-3). */
export const LONG_RUNNING_NOTE =
  'NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.';

/**
 * The description to declare for a long-running tool (FT-3): the note after a blank line, or the
 * note alone when there is no description.
 */
export function withLongRunningNote(description: string): string {
  return description ? `${description}\n\n${LONG_RUNNING_NOTE}` : LONG_RUNNING_NOTE;
}

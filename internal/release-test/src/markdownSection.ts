/**
 * The body of the Markdown section headed `heading` (any level, e.g. `## Install`): the lines after
 * the heading up to the next heading of the same or a higher level, fenced code blocks included
 * (a `#` line inside a fence is not a heading). `undefined` when no such heading exists.
 */
export function markdownSection(markdown: string, heading: string): string | undefined {
  const lines = markdown.split('\n');
  let level = 0;
  let start = -1;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length;
    if (start >= 0 && depth <= level) return lines.slice(start, i).join('\n');
    if (start < 0 && match[2] === heading) {
      level = depth;
      start = i + 1;
    }
  }
  return start >= 0 ? lines.slice(start).join('\n') : undefined;
}

/**
 * The fenced code blocks of a Markdown text written in `language` (```` ```ts ````), in order,
 * each with its trailing newline and without the fences. A fence only counts at the start of a
 * line.
 */
export function codeBlocks(markdown: string, language: string): string[] {
  const escaped = language.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const fence = new RegExp(`^\`\`\`${escaped}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  return [...markdown.matchAll(fence)].map((match) => match[1]!);
}

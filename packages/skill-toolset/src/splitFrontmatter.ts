import { SkillError } from './errors.js';

/** A SKILL.md cut in two (SK-4). */
export interface SplitSkillMd {
  /** The YAML between the separator lines. */
  readonly yaml: string;
  /** Everything after the closing separator line, untrimmed. */
  readonly body: string;
  /** Departures from SK-4 that lenient mode accepted. */
  readonly warnings: readonly string[];
}

const OPEN_ERROR = "invalid frontmatter separator line: must be '---' followed by a new line";
const CLOSE_ERROR = "missing closing frontmatter separator line: must be '---' followed by a new line";

/**
 * Splits a SKILL.md into its YAML frontmatter and its markdown body (SK-4): the first line must be
 * exactly `---` followed by `\n` or `\r\n`; YAML lines run until the next such line. Lenient mode
 * also accepts a UTF-8 byte-order mark before the first line and a closing `---` at the very end
 * of the file without a new line, and says so in `warnings`.
 */
export function splitFrontmatter(text: string, options: { strict?: boolean } = {}): SplitSkillMd {
  const warnings: string[] = [];
  let start = 0;
  if (!options.strict && text.charCodeAt(0) === 0xfeff) {
    start = 1;
    warnings.push('SKILL.md starts with a byte-order mark; remove it (the first line must be exactly "---")');
  }
  const firstEnd = lineEnd(text, start);
  if (firstEnd === undefined || text.slice(start, firstEnd.contentEnd) !== '---')
    throw new SkillError('SKILL_INVALID_FRONTMATTER', OPEN_ERROR);
  const yamlStart = firstEnd.next;
  let at = yamlStart;
  while (at < text.length) {
    const end = lineEnd(text, at);
    if (end === undefined) {
      if (!options.strict && text.slice(at) === '---') {
        warnings.push('the closing "---" is the last line of SKILL.md without a new line after it; add one');
        return { yaml: text.slice(yamlStart, at), body: '', warnings };
      }
      break;
    }
    if (text.slice(at, end.contentEnd) === '---') return { yaml: text.slice(yamlStart, at), body: text.slice(end.next), warnings };
    at = end.next;
  }
  throw new SkillError('SKILL_INVALID_FRONTMATTER', CLOSE_ERROR);
}

/** The end of the line starting at `from` (before `\r\n` or `\n`) and where the next begins. */
function lineEnd(text: string, from: number): { contentEnd: number; next: number } | undefined {
  const newline = text.indexOf('\n', from);
  if (newline === -1) return undefined;
  const contentEnd = newline > from && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
  return { contentEnd, next: newline + 1 };
}

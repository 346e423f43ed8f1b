import { SkillError, isSkillError } from './errors.js';
import { readSimpleYaml } from './simpleYaml.js';
import type { SkillFrontmatter } from './skillFrontmatter.js';
import { splitFrontmatter } from './splitFrontmatter.js';
import { validateFrontmatter, type ValidateFrontmatterOptions } from './validateFrontmatter.js';
import { yamlModule } from './yamlModule.js';

/** How deeply `[ ]` / `{ }` collections may nest: far past any real frontmatter, far below a stack overflow. */
const MAX_FLOW_DEPTH = 64;

/** The most frontmatter YAML a SKILL.md may have (characters); real ones have under 2,000. */
export const MAX_FRONTMATTER_LENGTH = 64 * 1024;

/** A parsed SKILL.md. */
export interface ParsedSkillMd {
  readonly frontmatter: SkillFrontmatter;
  /** The markdown after the frontmatter, untrimmed (SK-4). */
  readonly body: string;
  /** What lenient mode let through; empty in strict mode. */
  readonly warnings: readonly string[];
}

/**
 * Parses a SKILL.md: splits it (SK-4), reads the frontmatter with the `yaml` package (YAML 1.2
 * core schema, unique keys, at most 100 aliases; plain `key: value` frontmatter takes a faster
 * reader that gives the same result) and validates it (SK-2, SK-3). Throws a
 * `SkillError` whose message says what is wrong. In lenient mode (the default) a frontmatter
 * whose YAML does not parse is tried once more with the values that contain `": "` quoted (the
 * common `description: Use when: …` mistake), with a warning.
 */
export function parseSkillMd(text: string, options: ValidateFrontmatterOptions = {}): ParsedSkillMd {
  const split = splitFrontmatter(text, options);
  const raw = readYaml(split.yaml, options.strict === true);
  const validated = validateFrontmatter(raw.value, options);
  return {
    frontmatter: validated.frontmatter,
    body: split.body,
    warnings: [...split.warnings, ...raw.warnings, ...validated.warnings],
  };
}

/** The frontmatter YAML as a value; lenient mode retries once with `": "` values quoted. */
export function readYaml(yaml: string, strict: boolean): { value: unknown; warnings: string[] } {
  if (yaml.length > MAX_FRONTMATTER_LENGTH)
    throw new SkillError(
      'SKILL_INVALID_FRONTMATTER',
      `invalid frontmatter: it is longer than ${MAX_FRONTMATTER_LENGTH} characters; move long text into the body`,
    );
  // Most frontmatter is plain `key: value` text; the real parser is only needed for the rest.
  const simple = readSimpleYaml(yaml);
  if (simple !== undefined) return { value: simple, warnings: [] };
  const depth = flowDepth(yaml);
  if (depth > MAX_FLOW_DEPTH)
    throw new SkillError(
      'SKILL_INVALID_FRONTMATTER',
      `invalid frontmatter: its [ ] and { } collections nest ${depth} levels deep (at most ${MAX_FLOW_DEPTH} are read)`,
    );
  try {
    return { value: yamlValue(yaml), warnings: [] };
  } catch (error) {
    if (strict || !isSkillError(error)) throw error;
    const quoted = quoteColonValues(yaml);
    if (quoted === yaml) throw error;
    try {
      const value = yamlValue(quoted);
      return { value, warnings: [`${error.message}; loaded after quoting the values that contain ": "`] };
    } catch {
      throw error;
    }
  }
}

function yamlValue(yaml: string): unknown {
  const document = yamlModule().parseDocument(yaml, { schema: 'core', uniqueKeys: true, prettyErrors: false });
  const first = document.errors[0];
  if (first)
    throw new SkillError('SKILL_INVALID_FRONTMATTER', `invalid frontmatter: parse frontmatter: ${firstLine(first.message)}`);
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new SkillError('SKILL_INVALID_FRONTMATTER', `invalid frontmatter: parse frontmatter: ${firstLine(String((error as Error).message))}`);
  }
}

/** Top-level `key: value` lines whose plain value contains `": "`, with the value single-quoted. */
function quoteColonValues(yaml: string): string {
  return yaml.replace(/^([A-Za-z0-9_-]+):[ \t]+([^'"\s[{|>&*!%@`#][^\n\r]*?)[ \t]*(\r?)$/gm, (line, key: string, value: string, cr: string) =>
    value.includes(': ') ? `${key}: '${value.replace(/'/g, "''")}'${cr}` : line,
  );
}

/** The deepest `[`/`{` nesting outside quotes and comments; a cheap guard in front of the parser. */
function flowDepth(yaml: string): number {
  let depth = 0;
  let max = 0;
  let quote = '';
  for (let i = 0; i < yaml.length; i++) {
    const char = yaml[i]!;
    if (quote) {
      if (char === quote) quote = '';
      else if (char === '\\' && quote === '"') i++;
      else if (char === '\n' && depth === 0) quote = '';
    } else if (char === '"' || char === "'") {
      if (depth > 0 || /[\s:[{,-]/.test(yaml[i - 1] ?? ' ')) quote = char;
    } else if (char === '#' && /\s/.test(yaml[i - 1] ?? ' ')) {
      const end = yaml.indexOf('\n', i);
      i = end === -1 ? yaml.length : end;
    } else if (char === '[' || char === '{') max = Math.max(max, ++depth);
    else if ((char === ']' || char === '}') && depth > 0) depth--;
  }
  return max;
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.slice(0, 300);
}

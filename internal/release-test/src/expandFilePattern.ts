import { readdirSync } from 'node:fs';

/**
 * The file names in `dir` that a shell would give for `pattern`: one level of `{a,b}` braces,
 * then `*` and `?` wildcards (`adkit-{flow,tool}-*.tgz`), each alternative's matches sorted, in
 * the order of the alternatives. An alternative matching nothing throws, as `npm install` would
 * fail on the unexpanded word.
 */
export function expandFilePattern(dir: string, pattern: string): string[] {
  const files = readdirSync(dir).sort();
  const brace = /\{([^{}]*)\}/.exec(pattern);
  const alternatives = brace
    ? brace[1]!.split(',').map((choice) => pattern.slice(0, brace.index) + choice + pattern.slice(brace.index + brace[0].length))
    : [pattern];
  return alternatives.flatMap((alternative) => {
    const source = alternative.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
    const matcher = new RegExp(`^${source}$`);
    const matches = files.filter((file) => matcher.test(file));
    if (matches.length === 0) throw new Error(`No file in ${dir} matches ${JSON.stringify(alternative)} (from ${JSON.stringify(pattern)}).`);
    return matches;
  });
}

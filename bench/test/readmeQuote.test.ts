// The root README's Speed section quotes bench/RESULTS.md and holds no figure of its own (issue
// #18): the block between its markers is exactly what `pnpm bench` put there from RESULTS.md.
// Bad input tried: a README without the markers, a RESULTS.md without a claims table.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { currentSpeedQuote, speedQuote, withSpeedQuote } from '../report.mjs';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

describe('README Speed section', () => {
  it('quotes the claims table of bench/RESULTS.md, word for word', () => {
    const quote = currentSpeedQuote(read('../../README.md'));
    expect(quote, 'README.md lost its quote markers').toBeDefined();
    expect(quote).toBe(speedQuote(read('../RESULTS.md')));
  });

  it('the README outside the quote holds no measured figure', () => {
    const readme = read('../../README.md');
    const speed = readme.slice(readme.indexOf('## Speed'), readme.indexOf('\n## ', readme.indexOf('## Speed') + 1));
    const outside = speed.replace(currentSpeedQuote(readme) ?? '', '');
    expect(outside).not.toMatch(/\d+(\.\d+)?\s?(ns|µs|ms|s|MB)\b|\d×/);
  });

  it('refuses a README without markers and a RESULTS.md without a claims table', () => {
    expect(() => withSpeedQuote('# no markers\n', read('../RESULTS.md'))).toThrow(/no quote markers/);
    expect(() => speedQuote('# results\n\nMeasured today.\n')).toThrow(/no claims table/);
  });

  it('replaces only what lies between the markers', () => {
    const readme = read('../../README.md');
    const results = read('../RESULTS.md');
    const updated = withSpeedQuote(`before\n${currentSpeedQuote(readme)}\nafter\n`, results);
    expect(updated).toBe(`before\n${speedQuote(results)}\nafter\n`);
    expect(withSpeedQuote(updated, results)).toBe(updated);
  });
});

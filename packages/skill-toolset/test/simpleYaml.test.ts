// The fast frontmatter reader must agree with the `yaml` package on everything it accepts (and
// leave the rest to it). Compared on every real SKILL.md and on 6,000 generated documents built
// from YAML's tricky characters: indicators, quotes, escapes, `: `, ` #`, tabs, CRLF, numbers,
// booleans, null, `~`, `__proto__`, line separators, uneven indentation, duplicate keys.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { readSimpleYaml } from '../src/simpleYaml.js';
import { FIXTURES } from './support.js';

/** What the `yaml` package makes of it (as parseSkillMd calls it), or 'error'. */
function reference(text: string): unknown {
  const document = parseDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) return 'error';
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch {
    return 'error';
  }
}

function frontmatters(): [string, string][] {
  const found: [string, string][] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name === 'SKILL.md') {
        const text = readFileSync(join(dir, entry.name), 'utf8');
        found.push([dir.slice(FIXTURES.length + 1), text.slice(4, text.indexOf('\n---\n', 3) + 1)]);
      }
    }
  };
  walk(FIXTURES);
  return found;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'a', 'b', 'Use', ' ', ' ', ':', ': ', ' #', '#', '"', "'", "''", '\\', '\\n', '-', '- ', '?', '[', ']', '{', '}', ',', '&',
  '*', '!', '|', '>', '%', '@', '`', '.', '0', '1', '1.5', 'e3', '0x1f', '0o7', '.inf', '.NaN', '~', 'null', 'Null', 'true',
  'False', 'yes', 'no', '\t', 'é', '😀', '\u2028', '\u0085', '<', '=', '(', ')', '/', '$', 'n', 'u', 'l',
];
const KEYS = ['name', 'description', 'license', 'metadata', 'allowed-tools', 'a_b', 'x1', 'null', 'True', '__proto__', 'constructor', '1x', 'k'];

function generate(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const value = () => {
    let text = '';
    const length = 1 + Math.floor(next() * 6);
    for (let i = 0; i < length; i++) text += pick(PIECES);
    const quote = next();
    if (quote < 0.2) return `"${text}"`;
    if (quote < 0.35) return `'${text}'`;
    return text;
  };
  const lines: string[] = [];
  const count = 1 + Math.floor(next() * 4);
  for (let i = 0; i < count; i++) {
    const key = pick(KEYS);
    const shape = next();
    if (shape < 0.6) lines.push(`${key}: ${value()}`);
    else {
      lines.push(`${key}:${next() < 0.2 ? ' ' : ''}`);
      const indent = ' '.repeat(1 + Math.floor(next() * 3));
      const items = 1 + Math.floor(next() * 3);
      const list = next() < 0.5;
      for (let j = 0; j < items; j++) {
        const uneven = next() < 0.1 ? ' ' : '';
        lines.push(list ? `${indent}${uneven}- ${value()}` : `${indent}${uneven}${pick(KEYS)}: ${value()}`);
        if (next() < 0.1) lines.push('');
      }
    }
  }
  const eol = next() < 0.2 ? '\r\n' : '\n';
  return lines.join(eol) + eol;
}

describe('readSimpleYaml', () => {
  it('agrees with the yaml package on every real SKILL.md it accepts, and accepts most of them', () => {
    let accepted = 0;
    for (const [folder, text] of frontmatters()) {
      const fast = readSimpleYaml(text);
      if (fast === undefined) continue;
      accepted++;
      expect(fast, folder).toEqual(reference(text));
    }
    // The folded, literal, escaped and flow-list ones go to the yaml package.
    expect(accepted).toBeGreaterThanOrEqual(20);
  });

  it('agrees with the yaml package on 6,000 generated documents', () => {
    const next = random(42);
    let accepted = 0;
    for (let i = 0; i < 6_000; i++) {
      const text = generate(next);
      const fast = readSimpleYaml(text);
      if (fast === undefined) continue;
      accepted++;
      const expected = reference(text);
      if (JSON.stringify(fast) !== JSON.stringify(expected)) expect({ text, fast }).toEqual({ text, fast: expected });
    }
    expect(accepted).toBeGreaterThan(300);
  });

  it('keeps __proto__ and null-like keys for the yaml package', () => {
    expect(readSimpleYaml('__proto__: x\n')).toBeUndefined();
    expect(readSimpleYaml('metadata:\n  __proto__: x\n')).toBeUndefined();
    expect(readSimpleYaml('null: x\n')).toBeUndefined();
    expect(readSimpleYaml('name: a\ndescription: b\n')).toEqual({ name: 'a', description: 'b' });
  });
});

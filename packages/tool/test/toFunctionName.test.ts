import { describe, expect, it } from 'vitest';
import { FUNCTION_NAME_PATTERN, toFunctionName } from '../src/index.js';

describe('toFunctionName: outside names made valid, with the change reported', () => {
  it('keeps a valid name as it is, with no reason', () => {
    expect(toFunctionName('get_weather')).toEqual({ name: 'get_weather', original: 'get_weather' });
  });

  it.each([
    ['read file', 'read_file'],
    ['résumé/get', 'r_sum__get'],
    ['1st-tool', '_1st-tool'],
    ['', '_'],
    ['-x', '_-x'],
    ['__proto__', '__proto__'],
    ['tool:call', 'tool_call'],
  ])('turns %j into %j', (original, expected) => {
    const result = toFunctionName(original);
    expect(result.name).toBe(expected);
    expect(result.name).toMatch(FUNCTION_NAME_PATTERN);
    if (expected !== original) expect(result.reason).toMatch(/^renamed /);
  });

  it('cuts long names to 64 characters and keeps two long names with one prefix apart', () => {
    const a = toFunctionName(`${'x'.repeat(80)}_a`);
    const b = toFunctionName(`${'x'.repeat(80)}_b`);
    expect(a.name).toHaveLength(64);
    expect(a.name).not.toBe(b.name);
    expect(a.reason).toContain('longer than 64 characters');
  });

  it('adds a suffix for a taken name, again and again', () => {
    expect(toFunctionName('search', new Set(['search'])).name).toBe('search_2');
    expect(toFunctionName('search', new Set(['search', 'search_2'])).name).toBe('search_3');
    expect(toFunctionName('a b', new Set(['a_b'])).reason).toBe(
      'renamed "a b" to "a_b_2": characters other than letters, digits, "_", "." and "-" became "_"; "a_b" was already taken',
    );
  });

  it('handles a 50 MB name without a regex blow-up', () => {
    const result = toFunctionName('y'.repeat(50 * 1024 * 1024));
    expect(result.name).toHaveLength(64);
  });
});

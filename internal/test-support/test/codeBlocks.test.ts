import { describe, expect, it } from 'vitest';
import { codeBlocks } from '../src/codeBlocks.js';

const markdown = [
  '# Title',
  '```sh',
  'npm install x',
  '```',
  '```ts',
  'const a = 1;',
  'const s = "```ts inside a line is not a fence";',
  '```',
  'text ```ts not a fence either',
  '```text',
  'printed',
  '```',
  '```ts',
  'const b = 2;',
  '```',
  '',
].join('\n');

describe('codeBlocks', () => {
  it('returns the blocks of one language in order, with their last newline', () => {
    expect(codeBlocks(markdown, 'ts')).toEqual(['const a = 1;\nconst s = "```ts inside a line is not a fence";\n', 'const b = 2;\n']);
    expect(codeBlocks(markdown, 'text')).toEqual(['printed\n']);
  });

  it('returns nothing for a language with no block, and treats the language literally', () => {
    expect(codeBlocks(markdown, 'py')).toEqual([]);
    expect(codeBlocks('```c++\nint x;\n```\n```cxx\nint y;\n```\n', 'c++')).toEqual(['int x;\n']);
  });

  it('does not take an unclosed fence', () => {
    expect(codeBlocks('```ts\nconst a = 1;\n', 'ts')).toEqual([]);
  });
});

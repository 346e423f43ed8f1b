import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { expectReadmeExample } from '../src/expectReadmeExample.js';

const dir = mkdtempSync(join(tmpdir(), 'adkit-test-support-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const example = write('example.ts', "console.log('hi');\n");
const shown = (name: string, body: string) => write(name, `# x\n\n\`\`\`sh\nnpm i x\n\`\`\`\n\n\`\`\`ts\n${body}\`\`\`\n\nMore.\n`);

describe('expectReadmeExample', () => {
  it('passes when the first ts block is the file verbatim (paths or file URLs)', () => {
    const readme = shown('good.md', "console.log('hi');\n");
    expectReadmeExample(readme, example);
    expectReadmeExample(pathToFileURL(readme), pathToFileURL(example));
  });

  it('fails, naming both files, when one character differs', () => {
    const readme = shown('changed.md', 'console.log("hi");\n');
    expect(() => expectReadmeExample(readme, example)).toThrow(
      `${relative(process.cwd(), readme)}: the first \`\`\`ts block must be ${relative(process.cwd(), example)} verbatim`,
    );
  });

  it('fails when the file is only part of the block, or only a later block', () => {
    expect(() => expectReadmeExample(shown('more.md', "console.log('hi');\nconsole.log('more');\n"), example)).toThrow('verbatim');
    const later = write('later.md', "```ts\nother();\n```\n\n```ts\nconsole.log('hi');\n```\n");
    expect(() => expectReadmeExample(later, example)).toThrow('verbatim');
  });

  it('fails with a clear message when the README has no ts block', () => {
    const readme = write('none.md', '# x\n\n```js\nconsole.log(1)\n```\n');
    expect(() => expectReadmeExample(readme, example)).toThrow(
      `${relative(process.cwd(), readme)} has no \`\`\`ts block; its first one must be ${relative(process.cwd(), example)}, verbatim.`,
    );
  });

  it('fails with the file system error when a file is missing', () => {
    expect(() => expectReadmeExample(join(dir, 'missing.md'), example)).toThrow(/ENOENT/);
  });
});

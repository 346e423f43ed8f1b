import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it, onTestFinished, vi } from 'vitest';
import { tempDir } from './support/tempDir.js';

// The README's example, run as written: only its file name is pointed into a temp directory.
it('the README example runs and prints what its comments say', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks).toHaveLength(1);
  const example = blocks[0]!;
  expect(example.match(/'sessions\.db'/g)).toHaveLength(2);

  const temp = tempDir();
  onTestFinished(() => temp.remove());
  const script = temp.file('example.ts');
  writeFileSync(script, example.replaceAll("'sessions.db'", JSON.stringify(temp.file('sessions.db'))));

  const printed: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));
  onTestFinished(() => log.mockRestore());
  await import(/* @vite-ignore */ script);

  expect(printed).toEqual([[{ topic: 'orders', 'user:tier': 'gold' }], [1]]);
});

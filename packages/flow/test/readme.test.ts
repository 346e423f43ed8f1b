import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished, vi } from 'vitest';

// The README's example, run as written, printing what the README says it prints.
it('the README example runs and prints what the README shows', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const code = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const output = [...readme.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(code).toHaveLength(1);
  const dir = mkdtempSync(join(tmpdir(), 'adkit-readme-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'example.ts');
  writeFileSync(script, code[0]!);
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  onTestFinished(() => log.mockRestore());
  await import(/* @vite-ignore */ script);
  expect(printed.join('\n') + '\n').toBe(output[0]);
});

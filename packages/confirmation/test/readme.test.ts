import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished, vi } from 'vitest';

// The README's example, run as written; ids and the digest vary per run and show as "…".
it('the README example runs and prints what the README shows', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const code = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const output = [...readme.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(code).toHaveLength(1);
  // Written next to this test so its imports resolve from this package, as a user's would.
  const script = fileURLToPath(new URL(`./.readme-example-${process.pid}.ts`, import.meta.url));
  onTestFinished(() => rmSync(script, { force: true }));
  writeFileSync(script, code[0]!);
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  onTestFinished(() => log.mockRestore());
  await import(/* @vite-ignore */ script);
  const normalized = printed.map((line) => line.replace(/"id":"adk-[^"]+"/, '"id":"…"').replace(/"callDigest":"[0-9a-f]{64}"/, '"callDigest":"…"'));
  expect(normalized.join('\n') + '\n').toBe(output[0]);
});

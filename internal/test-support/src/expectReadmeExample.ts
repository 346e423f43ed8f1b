import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { codeBlocks } from './codeBlocks.js';

/**
 * Asserts that a README's example — its first ```` ```ts ```` block — is the example file
 * verbatim (house rule 12: the README example lives in `examples/<topic>/` and runs in a test).
 * Fails with both paths and a diff when they differ, and when the README has no `ts` block.
 *
 * @param readme the README, as a file URL or path
 * @param example the example file, as a file URL or path
 */
export function expectReadmeExample(readme: URL | string, example: URL | string): void {
  const readmeName = displayPath(readme);
  const exampleName = displayPath(example);
  const [first] = codeBlocks(readFileSync(readme, 'utf8'), 'ts');
  if (first === undefined) throw new Error(`${readmeName} has no \`\`\`ts block; its first one must be ${exampleName}, verbatim.`);
  expect(
    first,
    `${readmeName}: the first \`\`\`ts block must be ${exampleName} verbatim; copy the file into the README (or the block into the file)`,
  ).toBe(readFileSync(example, 'utf8'));
}

/** The path relative to the working directory (the repo root under vitest), for messages. */
function displayPath(file: URL | string): string {
  return relative(process.cwd(), file instanceof URL ? fileURLToPath(file) : file);
}

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

/** The corpus of real skills, a byte-for-byte copy of shared/fixtures/skills (read only: copy or link into a temp dir to change anything). */
export const FIXTURES = fileURLToPath(new URL('./fixtures/skills', import.meta.url));

/** A logger that keeps what it is told. */
export function collectingLogger(): { warn(message: string): void; error(message: string): void; warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => void warnings.push(message), error: (message) => void warnings.push(`error: ${message}`) };
}

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temp dir removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'adkit-skills-'));
  made.push(dir);
  return dir;
}

/** Writes files (path → content) below `root`, creating folders. */
export async function writeFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** A minimal valid SKILL.md. */
export function skillMd(name: string, description = `Does ${name} things.`, extra = '', body = `# ${name}\n\nStep one.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;
}

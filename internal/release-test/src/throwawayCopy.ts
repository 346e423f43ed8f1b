import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Copies a git working tree to `dest` as a release would see it: every tracked file plus every
 * untracked one git does not ignore (the working tree as it is, committed or not), plus the
 * built `dist/` of each `packages/*` (build first). Nothing in `root` changes, so `changeset
 * version` and `pnpm install` can run on the copy. Returns how many files were copied.
 */
export function throwawayCopy(root: string, dest: string): number {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString('utf8')
    .split('\0')
    .filter((file) => file.length > 0);
  let copied = 0;
  for (const file of listed) {
    const from = join(root, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(from, join(dest, file));
    copied++;
  }
  for (const folder of readdirSync(join(root, 'packages'))) {
    const dist = join(root, 'packages', folder, 'dist');
    if (existsSync(dist)) cpSync(dist, join(dest, 'packages', folder, 'dist'), { recursive: true });
  }
  return copied;
}

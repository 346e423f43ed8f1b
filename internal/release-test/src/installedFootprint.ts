import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What an npm install put on disk. */
export interface InstalledFootprint {
  /** Installed packages, nested copies included (npm's `node_modules/.package-lock.json`). */
  packages: number;
  /** Bytes of every file under `node_modules` (symbolic links not followed). */
  bytes: number;
}

/** Measures an npm app's `node_modules`: how many packages, how many bytes. */
export function installedFootprint(appDir: string): InstalledFootprint {
  const modules = join(appDir, 'node_modules');
  const lock = join(modules, '.package-lock.json');
  const entries = existsSync(lock)
    ? Object.keys((JSON.parse(readFileSync(lock, 'utf8')) as { packages?: Record<string, unknown> }).packages ?? {})
    : [];
  return { packages: entries.filter((path) => path.startsWith('node_modules/')).length, bytes: sizeOf(modules) };
}

function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += sizeOf(join(path, entry));
  return total;
}

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './runCommand.js';

/** The installed release tools. */
export interface ReleaseTools {
  /** The folder holding `node_modules`. */
  dir: string;
  verdaccio: string;
  publint: string;
  attw: string;
  /** True when this call installed them (false: reused from the cache). */
  installed: boolean;
}

/** Options of `ensureReleaseTools`. */
export interface EnsureReleaseToolsOptions {
  /** The folder with the pinned `package.json` and `package-lock.json` (this package's `tools/`). */
  manifestDir: string;
  /** Where installs are kept; default `$ADKIT_RELEASE_TOOLS_CACHE`, else `~/.cache/adkit-release-test`. */
  cacheDir?: string;
}

const MARKER = '.adkit-installed';

/**
 * Installs the pinned release tools (Verdaccio, publint, attw) with `npm ci` into a cache folder
 * outside the workspace, named after a hash of the manifest and lockfile, and reuses that install
 * while they do not change. An install goes to a scratch folder first and is renamed into place
 * when complete, so a killed run never leaves a half install behind that later runs would trust.
 */
export async function ensureReleaseTools(options: EnsureReleaseToolsOptions): Promise<ReleaseTools> {
  const files = ['package.json', 'package-lock.json'];
  const hash = createHash('sha256');
  for (const file of files) hash.update(readFileSync(join(options.manifestDir, file)));
  const cacheDir = options.cacheDir ?? process.env.ADKIT_RELEASE_TOOLS_CACHE ?? join(homedir(), '.cache', 'adkit-release-test');
  const dir = join(cacheDir, `tools-${hash.digest('hex').slice(0, 16)}`);
  let installed = false;
  if (!existsSync(join(dir, MARKER))) {
    mkdirSync(cacheDir, { recursive: true });
    const scratch = mkdtempSync(join(cacheDir, 'installing-'));
    try {
      for (const file of files) cpSync(join(options.manifestDir, file), join(scratch, file));
      await runCommand('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: scratch, timeoutMs: 300_000 });
      writeFileSync(join(scratch, MARKER), `${new Date().toISOString()}\n`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(scratch, dir);
      installed = true;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const bin = (name: string) => join(dir, 'node_modules', '.bin', name);
  return { dir, verdaccio: bin('verdaccio'), publint: bin('publint'), attw: bin('attw'), installed };
}

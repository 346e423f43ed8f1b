import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';

/**
 * The registry npm uses on this machine (`npm config get registry`, read in a neutral folder so
 * no project `.npmrc` changes it). The local registry proxies third-party packages from it; it
 * is read at run time and only ever written into the temporary registry config.
 */
export function upstreamRegistry(): string {
  const url = execFileSync('npm', ['config', 'get', 'registry'], { cwd: tmpdir(), encoding: 'utf8' }).trim();
  if (!/^https?:\/\//.test(url)) throw new Error(`\`npm config get registry\` printed ${JSON.stringify(url)}, not a registry URL.`);
  return url;
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A package.json, as far as the release test reads it. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  [field: string]: unknown;
}

/** A workspace package that gets published. */
export interface PublishablePackage {
  name: string;
  version: string;
  /** The folder name under `packages/`. */
  folder: string;
  /** The absolute path of the folder. */
  dir: string;
  manifest: PackageManifest;
}

/**
 * Every publishable package of a workspace: each `packages/<folder>/package.json` that is not
 * `private`, sorted by name. New packages are picked up as they appear; none is skipped.
 */
export function publishablePackages(root: string): PublishablePackage[] {
  const packagesDir = join(root, 'packages');
  const found: PublishablePackage[] = [];
  for (const folder of readdirSync(packagesDir).sort()) {
    const file = join(packagesDir, folder, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
    if (manifest.private === true) continue;
    found.push({ name: manifest.name, version: manifest.version, folder, dir: join(packagesDir, folder), manifest });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PublishablePackage } from './publishablePackages.js';

/** What `manifestProblems` also requires on disk. */
export interface ManifestCheckOptions {
  /** Require a CHANGELOG.md (true after `changeset version`). */
  changelog?: boolean;
}

const REQUIRED_FILES = ['dist', 'README.md', 'CHANGELOG.md'];

/**
 * What a user-facing package.json is missing, one sentence each (empty when it is fine): the
 * metadata registries and users read (`license`, `repository` with the package's `directory`,
 * `engines.node`), ESM (`"type": "module"`), `files` holding dist, README and changelog, public
 * access for a scoped name, and the README (and, after `changeset version`, the CHANGELOG) on disk.
 * publint and attw check `exports` and the packed files; this checks what they do not.
 */
export function manifestProblems(pkg: PublishablePackage, options: ManifestCheckOptions = {}): string[] {
  const m = pkg.manifest;
  const problems: string[] = [];
  const where = `${pkg.name} (packages/${pkg.folder}/package.json)`;
  if (typeof m.license !== 'string' || m.license.length === 0) problems.push(`${where}: no "license"; add "license": "Apache-2.0".`);
  const repository = m.repository as { type?: unknown; url?: unknown; directory?: unknown } | undefined;
  if (typeof repository !== 'object' || repository === null || repository.type !== 'git' || typeof repository.url !== 'string')
    problems.push(`${where}: "repository" must be {"type": "git", "url": ..., "directory": "packages/${pkg.folder}"}.`);
  else if (repository.directory !== `packages/${pkg.folder}`)
    problems.push(`${where}: "repository.directory" is ${JSON.stringify(repository.directory)}; it must be "packages/${pkg.folder}".`);
  const engines = m.engines as { node?: unknown } | undefined;
  if (typeof engines?.node !== 'string') problems.push(`${where}: no "engines.node"; add "engines": {"node": ">=20.19"}.`);
  if (m.type !== 'module') problems.push(`${where}: "type" must be "module" (the packages are ESM).`);
  const files = Array.isArray(m.files) ? m.files : [];
  for (const file of REQUIRED_FILES)
    if (!files.includes(file)) problems.push(`${where}: "files" lacks "${file}"; it must list ${REQUIRED_FILES.map((f) => `"${f}"`).join(', ')}.`);
  const publishConfig = m.publishConfig as { access?: unknown } | undefined;
  if (pkg.name.startsWith('@') && publishConfig?.access !== 'public')
    problems.push(`${where}: a scoped package needs "publishConfig": {"access": "public"}, or the first publish is refused.`);
  if (!existsSync(join(pkg.dir, 'README.md'))) problems.push(`${where}: no README.md next to package.json.`);
  if (options.changelog && !existsSync(join(pkg.dir, 'CHANGELOG.md')))
    problems.push(`${where}: no CHANGELOG.md after \`changeset version\`; add a changeset that names the package.`);
  return problems;
}

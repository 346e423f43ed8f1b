// Lints packed packages with the tools made for it, in one process (attw's checker loads the
// TypeScript compiler once for all packages instead of once per package):
//   node lintTarballs.mjs <release tools dir> <package.tgz>...
// prints one JSON object per tarball: {file, publint: [{type, message}], attw: {types, failed, problems}}.
// publint runs with `strict: true` (warnings count as errors). attw applies the rule of its CLI's
// `--profile esm-only` (the packages are ESM only: node10 and require-from-CJS resolutions are not
// judged), and `types` says whether the package ships type declarations at all, which the CLI
// alone does not fail on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [toolsDir, ...tarballs] = process.argv.slice(2);
const require = createRequire(join(toolsDir, 'package.json'));
const load = (specifier) => import(pathToFileURL(require.resolve(specifier)).href);
const [{ publint }, { formatMessage }, attw, { getExitCode }] = await Promise.all([
  load('publint'),
  load('publint/utils'),
  load('@arethetypeswrong/core'),
  load('@arethetypeswrong/cli/internal/getExitCode'),
]);
const ESM_ONLY = { ignoreResolutions: ['node10', 'node16-cjs'] };

for (const file of tarballs) {
  const data = readFileSync(file);
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const lint = await publint({ pack: { tarball }, strict: true, level: 'suggestion' });
  const publintMessages = lint.messages.map((message) => ({
    type: message.type,
    message: formatMessage(message, lint.pkg, { color: false }) ?? message.code,
  }));
  const analysis = await attw.checkPackage(attw.createPackageFromTarballData(new Uint8Array(data)));
  const types = Boolean(analysis.types);
  const problems = types
    ? analysis.problems
        .filter((problem) => !('resolutionKind' in problem) || !ESM_ONLY.ignoreResolutions.includes(problem.resolutionKind))
        .map((problem) => ({ kind: problem.kind, entrypoint: problem.entrypoint, resolutionKind: problem.resolutionKind }))
    : [];
  const failed = !types || getExitCode(analysis, ESM_ONLY) !== 0;
  process.stdout.write(`${JSON.stringify({ file, publint: publintMessages, attw: { types, failed, problems } })}\n`);
}

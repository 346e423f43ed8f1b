import { ArtifactError } from '../errors.js';

/** The longest artifact name accepted, in UTF-16 code units. */
export const MAX_ARTIFACT_NAME_LENGTH = 1024;

const USER_PREFIX = 'user:';
// Control characters, NUL included: they cannot be file names on every platform and they hide in logs.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Why an artifact name is refused, or `undefined` when it is fine. A name is a plain string
 * (`report.txt`, `charts/q1.png`, `user:avatar.png`); `/` may structure it, but it must not be
 * able to leave a store's root once written to disk or put in a URL: refused are empty names,
 * names over `MAX_ARTIFACT_NAME_LENGTH`, control characters (NUL included), absolute paths
 * (`/etc/passwd`, `\\server\share`, `C:\x`, `C:x`), and `..` segments, also when `\` separates
 * them, when percent-encoded (`%2e%2e%2f`, decoded repeatedly) or written with full-width dots.
 * Every other string, `__proto__` included, is a plain name.
 */
export function artifactNameProblem(filename: unknown): string | undefined {
  if (typeof filename !== 'string') return `an artifact name must be a string, got ${filename === null ? 'null' : typeof filename}`;
  if (filename.length === 0) return 'an artifact name must not be empty';
  if (filename.length > MAX_ARTIFACT_NAME_LENGTH)
    return `an artifact name must be at most ${MAX_ARTIFACT_NAME_LENGTH} characters long, got ${filename.length}`;
  const path = filename.startsWith(USER_PREFIX) ? filename.slice(USER_PREFIX.length) : filename;
  if (path.length === 0) return 'an artifact name needs a name after "user:"';
  for (const form of spellings(path)) {
    if (CONTROL.test(form)) return 'an artifact name must not contain control characters (NUL included)';
    const slashed = form.replaceAll('\\', '/');
    if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) return 'an artifact name must not be an absolute path';
    if (slashed.split('/').some((segment) => segment.trim() === '..')) return 'an artifact name must not contain ".." segments';
  }
  return undefined;
}

/**
 * Throws an `ArtifactError` naming the fix when the artifact name is refused (see
 * `artifactNameProblem`). Artifact services call it on every method that takes a name, passing
 * the method's name for the message.
 */
export function assertArtifactName(filename: unknown, method: string): asserts filename is string {
  const problem = artifactNameProblem(filename);
  if (problem === undefined) return;
  if (filename === '' || filename === undefined)
    throw new ArtifactError(`${method} needs a filename; pass a non-empty name such as "report.txt".`);
  throw new ArtifactError(
    `${method}: artifact name ${JSON.stringify(filename)} is refused: ${problem}. Use a relative name such as "report.txt" or "charts/q1.png" (prefix "user:" to share it across the user's sessions).`,
  );
}

/** The name as written, percent-decoded (repeatedly) and NFKC-normalized: every way a reader might see it. */
function spellings(name: string): string[] {
  const forms = [name];
  let current = name;
  for (let i = 0; i < 4 && current.includes('%'); i++) {
    const decoded = safeDecode(current);
    if (decoded === current) break;
    forms.push(decoded);
    current = decoded;
  }
  for (const form of [...forms]) {
    const normalized = form.normalize('NFKC');
    if (normalized !== form) forms.push(normalized);
  }
  return forms;
}

/** Percent-decodes what decodes; malformed escapes (`100%`) stay as written. */
function safeDecode(text: string): string {
  return text.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

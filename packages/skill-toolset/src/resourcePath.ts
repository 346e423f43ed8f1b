import { posix } from 'node:path';
import { quoted } from '@adkit/flow';
import { SkillError } from './errors.js';

/** The longest resource path accepted, in characters. */
const MAX_PATH_LENGTH = 1024;

/**
 * Cleans a resource path from the model and refuses the ones that could leave the skill's folder
 * (SK-7): empty paths, NUL, backslashes, absolute paths (`/x`, `C:x`), paths that climb out after
 * lexical cleaning (`a/../../x`), hidden segments (`.env`, `.git/`). Nothing is percent-decoded:
 * `%2e%2e` names a file called `%2e%2e`. With `folders`, the cleaned path must start with one of
 * them (SK-7's `references/`, `assets/`, `scripts/`).
 */
export function cleanResourcePath(skillName: string, path: string, folders?: readonly string[]): string {
  const refuse = (why: string) =>
    new SkillError('SKILL_INVALID_RESOURCE_PATH', `invalid resource path "${display(path)}" for skill "${skillName}": ${why}`, {
      skillName,
    });
  if (path.length === 0) throw refuse('it is empty');
  if (path.length > MAX_PATH_LENGTH) throw refuse(`it is longer than ${MAX_PATH_LENGTH} characters`);
  if (path.includes('\0')) throw refuse('it contains a NUL character');
  if (path.includes('\\')) throw refuse('use forward slashes, relative to the skill folder (e.g. "references/guide.md")');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw refuse('absolute paths are refused; give a path relative to the skill folder');
  const cleaned = posix.normalize(path).replace(/\/+$/, '');
  if (cleaned === '.' || cleaned === '') throw refuse('it names the skill folder itself, not a file');
  if (cleaned === '..' || cleaned.startsWith('../')) throw refuse('it leaves the skill folder');
  if (cleaned.split('/').some((segment) => segment.startsWith('.'))) throw refuse('hidden files and folders are not resources');
  if (folders && folders.length > 0 && !folders.some((folder) => cleaned.startsWith(`${folder}/`)))
    throw refuse(`it must be within ${folders.map((folder) => `'${folder}/'`).join(', ')} (relative to the skill directory)`);
  return cleaned;
}

function display(path: string): string {
  return quoted(path, 200).replace(/[\0-\x1f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

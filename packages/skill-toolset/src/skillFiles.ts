import { constants } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { SkillError, resourceNotFound, skillNotFound } from './errors.js';

/** The most files `listResources` returns. */
const MAX_FILES = 20_000;

/**
 * Opening without blocking: a named pipe with no writer would otherwise block the open (and with
 * it a thread of libuv's pool, or the whole process for a synchronous open) forever. Regular files
 * are unaffected.
 */
export const OPEN_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Errors of `open` that mean the path is something other than a file (a socket: ENXIO). */
export const NOT_REGULAR_FILE_CODES: ReadonlySet<string> = new Set(['ENXIO', 'EOPNOTSUPP']);

/** What a non-regular file is, for messages. */
export function kindOf(stats: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** Whether a file-system error means "no such file". */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Reads a whole file of at most `limit` bytes: `limit + 1` bytes are read, so a file that grew
 * past the limit is caught too (SK-10).
 */
export async function readLimited(
  path: string,
  limit: number,
  skill: string,
  display: string,
  resource = false,
): Promise<{ bytes: Uint8Array; text: string }> {
  let handle;
  try {
    // A resource's path is already resolved; O_NOFOLLOW refuses a link swapped in since then.
    // Without blocking: a named pipe would hold a thread of libuv's pool until someone writes.
    const flags = constants.O_RDONLY | OPEN_NONBLOCK | (resource ? (constants.O_NOFOLLOW ?? 0) : 0);
    handle = await open(path, flags);
  } catch (error) {
    if (isMissing(error)) throw resource ? resourceNotFound(skill, display) : skillNotFound(skill, 'its SKILL.md is gone');
    if (NOT_REGULAR_FILE_CODES.has((error as { code?: string })?.code ?? '')) throw notAFile(skill, display, 'a socket');
    if ((error as { code?: unknown })?.code === 'ELOOP')
      throw new SkillError('SKILL_INVALID_RESOURCE_PATH', `invalid resource path "${display}" for skill "${skill}": it is a symbolic link`, {
        skillName: skill,
      });
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notAFile(skill, display, kindOf(stats));
    const tooLarge = () =>
      new SkillError('SKILL_RESOURCE_TOO_LARGE', `resource '${display}' from skill '${skill}' is too large (limit: ${limit} bytes)`, {
        skillName: skill,
      });
    if (stats.size > limit) throw tooLarge();
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, limit) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > limit) throw tooLarge();
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
    return { bytes, text: resource ? '' : buffer.toString('utf8', 0, filled) };
  } finally {
    await handle.close();
  }
}

function notAFile(skill: string, display: string, kind: string): SkillError {
  return new SkillError('SKILL_INVALID_RESOURCE_PATH', `invalid resource path "${display}" for skill "${skill}": it is ${kind}, not a regular file`, {
    skillName: skill,
  });
}

/** Adds the files below `base/folder` (skill-relative, `/`-separated), skipping hidden ones and links. */
export async function walkFiles(base: string, folder: string, out: string[], level = 0): Promise<void> {
  if (level > 8 || out.length >= MAX_FILES) return;
  let entries;
  try {
    entries = await readdir(folder ? join(base, folder) : base, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isFile()) out.push(path);
    else if (entry.isDirectory()) await walkFiles(base, path, out, level + 1);
    else if (entry.isSymbolicLink()) {
      const target = await realpath(join(base, path)).catch(() => undefined);
      if (target?.startsWith(base + sep) && (await stat(target).catch(() => undefined))?.isFile()) out.push(path);
    }
  }
}

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { SkillError } from './errors.js';
import { isMissing, NOT_REGULAR_FILE_CODES, OPEN_NONBLOCK, kindOf } from './skillFiles.js';
import { MAX_FRONTMATTER_LENGTH } from './parseSkillMd.js';

/** What the listing reads of a SKILL.md at most: enough for the longest frontmatter allowed (in UTF-8). */
export const HEAD_BYTES = MAX_FRONTMATTER_LENGTH * 4 + 16;
/** The first read of each SKILL.md. */
const FIRST_READ = 8 * 1024;
/** One buffer for the synchronous head reads (they never overlap). */
const scratch = Buffer.allocUnsafe(HEAD_BYTES);

/**
 * The start of a SKILL.md, synchronously: the first 8 KiB, which hold most frontmatters, and more
 * (up to `HEAD_BYTES`) only when they do not. `cut` says the file went on past `HEAD_BYTES`.
 * `undefined` when there is no such file (or it is a folder). Only a regular file is read: a named
 * pipe, socket or device is a `SKILL_NOT_A_FILE` error (opened without blocking, so a pipe with no
 * writer cannot freeze the process); other errors are thrown.
 */
export function readSkillHead(path: string): { text: string; cut: boolean } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | OPEN_NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return undefined;
    if (NOT_REGULAR_FILE_CODES.has((error as { code?: string })?.code ?? '')) throw notAFile('a socket');
    throw error;
  }
  let filled: number;
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return undefined;
    if (!stats.isFile()) throw notAFile(kindOf(stats));
    filled = fill(fd, 0, FIRST_READ);
    if (filled === FIRST_READ && !hasClosingLine(filled)) filled = fill(fd, filled, HEAD_BYTES);
  } catch (error) {
    // A folder named SKILL.md is no skill file.
    if ((error as { code?: unknown })?.code === 'EISDIR') return undefined;
    throw error;
  } finally {
    closeSync(fd);
  }
  return { text: scratch.toString('utf8', 0, filled), cut: filled === HEAD_BYTES };
}

/**
 * The text up to the end of the closing `---` line (all of it when there is none): what a
 * listing depends on, so an unchanged one need not be parsed again.
 */
export function frontmatterKey(text: string): string {
  for (let at = text.indexOf('\n---', 3); at !== -1; at = text.indexOf('\n---', at + 1)) {
    if (text.startsWith('\n', at + 4)) return text.slice(0, at + 5);
    if (text.startsWith('\r\n', at + 4)) return text.slice(0, at + 6);
  }
  return text;
}

/** Reads the file into `scratch` from `from` up to `to`; returns how far it got. */
function fill(fd: number, from: number, to: number): number {
  let filled = from;
  while (filled < to) {
    const bytesRead = readSync(fd, scratch, filled, to - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/** Whether the bytes read so far contain a second `---` line (SK-4's closing separator). */
function hasClosingLine(length: number): boolean {
  const read = scratch.subarray(0, length);
  for (let at = read.indexOf('\n---', 3); at !== -1; at = read.indexOf('\n---', at + 1)) {
    const next = read[at + 4];
    if (next === 0x0a || (next === 0x0d && read[at + 5] === 0x0a)) return true;
  }
  return false;
}

function notAFile(kind: string): SkillError {
  return new SkillError('SKILL_NOT_A_FILE', `SKILL.md is ${kind}, not a regular file; only regular files are read`);
}

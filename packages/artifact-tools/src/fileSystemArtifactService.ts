import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { ArtifactError, ConfigError, errorMessage } from '@adkit/flow';
import { assertArtifactName, assertArtifactPart } from '@adkit/flow/store';
import type { ArtifactKey, ArtifactService, Part } from '@adkit/flow';
import { decodeVersionFile, encodeVersionFile, filenameFromHeader } from './versionFile.js';

/** Options of `FileSystemArtifactService`. */
export interface FileSystemArtifactServiceOptions {
  /** The folder that holds every artifact; created on the first save. Resolved once, at construction. */
  root: string;
}

const USER_PREFIX = 'user:';
const VERSION_FILE = /^(0|[1-9][0-9]{0,15})\.adkit$/;
// A directory made by `segment()`: a readable slug, then 32 hex digits of a SHA-256.
const SEGMENT = /^[a-z0-9_-][a-z0-9._-]{0,39}-[0-9a-f]{32}$/;
const HEADER_CHUNK = 16 * 1024;
// How many artifact folders listArtifactKeys reads at once.
const LIST_CONCURRENCY = 16;
// How many times a save retries when the artifact's folder is deleted under it.
const SAVE_ATTEMPTS = 5;

/**
 * Artifacts as versioned files under one folder, kept across restarts and shared by every process
 * that opens the same root. Each version is one file, written to a temporary name, flushed, then
 * published under its version number with a hard link, which fails when that number is taken:
 * readers never see half a file, and two processes saving the same name at once get distinct
 * versions with nothing lost. Names are checked by `assertArtifactName` (`..`, absolute paths,
 * encoded traversal and NUL are refused) and never become paths: each folder on disk is a short
 * readable slug plus a SHA-256 of the app, user, session or artifact name, so ids and names that
 * differ only in case or contain `/` stay apart on every file system.
 *
 * ```ts
 * const artifacts = new FileSystemArtifactService({ root: './artifacts' });
 * const runner = new Runner({ appName: 'docs', agent, sessionService, artifactService: artifacts });
 * ```
 */
export class FileSystemArtifactService implements ArtifactService {
  /** The absolute path of the root folder. */
  readonly root: string;

  constructor(options: FileSystemArtifactServiceOptions) {
    const root = (options as Partial<FileSystemArtifactServiceOptions> | undefined)?.root;
    if (typeof root !== 'string' || root.trim() === '')
      throw new ConfigError(
        `FileSystemArtifactService needs a root folder, got ${root === undefined ? 'none' : JSON.stringify(root)}; pass {root: './artifacts'}.`,
      );
    if (root.includes('\u0000')) throw new ConfigError('FileSystemArtifactService: the root folder must not contain NUL.');
    this.root = isAbsolute(root) ? resolve(root) : resolve(process.cwd(), root);
  }

  async saveArtifact(request: ArtifactKey & { artifact: Part }): Promise<number> {
    assertArtifactName(request.filename, 'saveArtifact');
    assertArtifactPart(request.artifact, 'saveArtifact');
    const bytes = encodeVersionFile(request.filename, request.artifact);
    const dir = this.artifactDir(request);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.publish(dir, bytes);
      } catch (error) {
        // The folder vanished (a concurrent delete): start again in a fresh one.
        if (code(error) === 'ENOENT' && attempt < SAVE_ATTEMPTS) continue;
        throw new ArtifactError(`saveArtifact "${request.filename}" failed: ${errorMessage(error)}`, { cause: error });
      }
    }
  }

  async loadArtifact(request: ArtifactKey & { version?: number }): Promise<Part | undefined> {
    assertArtifactName(request.filename, 'loadArtifact');
    const { version } = request;
    if (version !== undefined && !(Number.isSafeInteger(version) && version >= 0)) return undefined;
    const dir = this.artifactDir(request);
    const chosen = version ?? (await versionsIn(dir)).at(-1);
    if (chosen === undefined) return undefined;
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir, `${chosen}.adkit`));
    } catch (error) {
      if (code(error) === 'ENOENT') return undefined;
      throw new ArtifactError(`loadArtifact "${request.filename}" failed: ${errorMessage(error)}`, { cause: error });
    }
    let header;
    try {
      header = decodeVersionFile(bytes);
    } catch (error) {
      throw new ArtifactError(
        `loadArtifact "${request.filename}" version ${chosen}: ${errorMessage(error)} (${join(dir, `${chosen}.adkit`)}).`,
        { cause: error },
      );
    }
    // Two names with the same digest would share a folder; never hand out the other one's data.
    if (header.filename !== request.filename) return undefined;
    return header.part;
  }

  async listArtifactKeys(request: Omit<ArtifactKey, 'filename'>): Promise<string[]> {
    const owner = this.ownerDir(request);
    const folders = [join(owner, 'sessions', segment(request.sessionId)), join(owner, 'user')];
    const dirs: string[] = [];
    for (const folder of folders)
      for (const entry of await entriesIn(folder)) if (SEGMENT.test(entry)) dirs.push(join(folder, entry));
    const names = new Set<string>();
    // A few reads at a time: quick for many artifacts, without running out of file handles.
    for (let start = 0; start < dirs.length; start += LIST_CONCURRENCY) {
      const found = await Promise.all(
        dirs.slice(start, start + LIST_CONCURRENCY).map(async (dir) => {
          const [first] = await versionsIn(dir);
          return first === undefined ? undefined : readFilename(join(dir, `${first}.adkit`));
        }),
      );
      for (const filename of found) if (filename !== undefined) names.add(filename);
    }
    return [...names].sort();
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    assertArtifactName(request.filename, 'deleteArtifact');
    const dir = this.artifactDir(request);
    // Renamed first, so readers see every version or none; then removed.
    const doomed = `${dir}.deleting-${randomUUID()}`;
    try {
      await rename(dir, doomed);
    } catch (error) {
      if (code(error) === 'ENOENT') return;
      throw new ArtifactError(`deleteArtifact "${request.filename}" failed: ${errorMessage(error)}`, { cause: error });
    }
    await rm(doomed, { recursive: true, force: true });
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    assertArtifactName(request.filename, 'listVersions');
    return versionsIn(this.artifactDir(request));
  }

  /** Writes the bytes once to a temporary file, then links it to the next free version number. */
  private async publish(dir: string, bytes: Buffer): Promise<number> {
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `.tmp-${process.pid}-${randomUUID()}`);
    const file = await open(temp, 'wx');
    try {
      await file.writeFile(bytes);
      await file.datasync();
    } finally {
      await file.close();
    }
    try {
      let version = ((await versionsIn(dir)).at(-1) ?? -1) + 1;
      for (;;) {
        try {
          await link(temp, join(dir, `${version}.adkit`));
          await syncDir(dir);
          return version;
        } catch (error) {
          if (code(error) !== 'EEXIST') throw error;
          // Another writer took this number: take the next free one.
          version = Math.max(version + 1, ((await versionsIn(dir)).at(-1) ?? -1) + 1);
        }
      }
    } finally {
      await unlink(temp).catch(() => {});
    }
  }

  private ownerDir(key: { appName: string; userId: string }): string {
    return join(this.root, segment(key.appName), segment(key.userId));
  }

  private artifactDir(key: ArtifactKey): string {
    const owner = this.ownerDir(key);
    const scope = key.filename.startsWith(USER_PREFIX) ? join(owner, 'user') : join(owner, 'sessions', segment(key.sessionId));
    return join(scope, segment(key.filename));
  }
}

/**
 * One folder name for any string: a readable slug (lower case, at most 40 characters, no leading
 * dot) and 32 hex digits of its SHA-256, so the name is safe, bounded, and unique per string even
 * on case-insensitive file systems.
 */
function segment(value: string): string {
  const slug = value
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '_')
    .replace(/^[.]+/, '_')
    .slice(0, 40);
  const digest = createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);
  return `${slug || '_'}-${digest}`;
}

/** The committed version numbers in a folder, ascending; none when it does not exist. */
async function versionsIn(dir: string): Promise<number[]> {
  const versions: number[] = [];
  for (const entry of await entriesIn(dir)) {
    const match = VERSION_FILE.exec(entry);
    if (match) versions.push(Number(match[1]));
  }
  return versions.sort((a, b) => a - b);
}

async function entriesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return [];
    throw new ArtifactError(`reading ${dir} failed: ${errorMessage(error)}`, { cause: error });
  }
}

/** The artifact name from a version file's header line, reading no more of the file than that. */
async function readFilename(path: string): Promise<string | undefined> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const chunks: Buffer[] = [];
    for (let position = 0; ; position += HEADER_CHUNK) {
      const chunk = Buffer.alloc(HEADER_CHUNK);
      const { bytesRead } = await file.read(chunk, 0, HEADER_CHUNK, position);
      if (bytesRead === 0) return undefined;
      chunks.push(chunk.subarray(0, bytesRead));
      if (chunk.subarray(0, bytesRead).includes(0x0a)) return filenameFromHeader(Buffer.concat(chunks));
    }
  } finally {
    await file.close();
  }
}

/** Flushes a folder's entries (the new link) to disk; a no-op where folders cannot be opened. */
async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open folders; the link is still atomic, only its durability is the OS's.
  } finally {
    await handle?.close();
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

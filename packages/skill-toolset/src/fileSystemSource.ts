import { readdirSync, statSync, type Stats } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, errorMessage, quoted, stderrLogger } from '@adkit/flow';
import { SkillError, isSkillError, resourceNotFound, skillNotFound } from './errors.js';
import { parseSkillMd } from './parseSkillMd.js';
import { frontmatterKey, HEAD_BYTES, readSkillHead } from './readSkillHead.js';
import { isMissing, readLimited, walkFiles } from './skillFiles.js';
import { TimeSlicer } from './timeSlicer.js';
import { cleanResourcePath } from './resourcePath.js';
import type { SkillFrontmatter } from './skillFrontmatter.js';
import {
  DEFAULT_MAX_RESOURCE_BYTES,
  type LoadResourceOptions,
  type SkillLogger,
  type SkillSource,
  type SkillSourceCallOptions,
} from './skillSource.js';

/** Options of `fileSystemSource`. */
export interface FileSystemSourceOptions {
  /**
   * Refuse every rule break of the Agent Skills specification: the first bad SKILL.md fails the
   * whole listing (SK-6). By default (lenient) rule breaks are warnings and skills that cannot be
   * used (YAML that does not parse, no name or description) are skipped with a warning.
   */
  strict?: boolean;
  /**
   * How many folder levels below the root to look for skills: 1 (the default) is SK-1's layout,
   * one folder per skill; 3 also finds skills nested two levels inside other skills.
   */
  depth?: number;
  /**
   * Resources must sit in one of these folders (SK-7 uses `['references', 'assets', 'scripts']`).
   * By default any file inside the skill's folder is a resource, as the Agent Skills
   * specification allows.
   */
  resourceFolders?: readonly string[];
  /** Where warnings go when a call passes no logger; stderr by default. */
  logger?: SkillLogger;
  /** The largest SKILL.md `load_skill` reads, in bytes; 10 MiB by default. */
  maxSkillMdBytes?: number;
}

/** A source reading a folder of skill folders; see `fileSystemSource`. */
export interface FileSystemSource extends SkillSource {
  /** The skills folder, as an absolute path. */
  readonly root: string;
  /** Forgets every cached frontmatter: the next call reads the folder again. */
  reload(): void;
}

/** The most folders a listing visits, so a huge tree (or a mistaken root like `/`) fails fast. */
const MAX_FOLDERS = 20_000;
/** The longest the listing keeps the event loop busy at a time, in milliseconds. */
const SLICE_MS = 4;
interface Candidate {
  readonly dir: string;
  /** The folder relative to the root, with `/`, for messages. */
  readonly label: string;
  readonly directoryName: string;
}

interface Entry extends Candidate {
  frontmatter: SkillFrontmatter;
  realDir?: Promise<string>;
}

interface Listing {
  readonly rootMtimeMs: number;
  readonly byName: Map<string, Entry>;
  frontmatters: readonly SkillFrontmatter[];
}

/** A SKILL.md parsed once, reused while its frontmatter text stays the same. */
interface CachedParse {
  readonly key: string;
  readonly frontmatter?: SkillFrontmatter;
  readonly error?: SkillError;
}

type ReadResult = { parse: CachedParse; fresh: boolean; warnings: readonly string[] } | undefined;

class FolderSource implements FileSystemSource {
  readonly root: string;
  private readonly strict: boolean;
  private readonly depth: number;
  private readonly folders?: readonly string[];
  private readonly logger: SkillLogger;
  private readonly maxSkillMdBytes: number;
  private readonly parses = new Map<string, CachedParse>();
  private current?: Listing;
  private scanning?: Promise<Listing>;
  private generation = 0;

  constructor(folder: string | URL, options: FileSystemSourceOptions) {
    const dir = folder instanceof URL ? fileURLToPath(folder) : folder;
    if (typeof dir !== 'string' || dir.length === 0)
      throw new ConfigError('fileSystemSource: dir must be the path of a folder of skill folders, e.g. fileSystemSource("./skills").');
    const depth = options.depth ?? 1;
    if (!Number.isInteger(depth) || depth < 1 || depth > 8)
      throw new ConfigError(`fileSystemSource("${dir}"): depth must be an integer from 1 to 8, got ${String(depth)}.`);
    const maxBytes = options.maxSkillMdBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
    if (!Number.isInteger(maxBytes) || maxBytes < 1)
      throw new ConfigError(`fileSystemSource("${dir}"): maxSkillMdBytes must be a positive integer, got ${String(maxBytes)}.`);
    if (options.resourceFolders !== undefined) {
      const folders = options.resourceFolders;
      if (!Array.isArray(folders) || folders.some((f) => typeof f !== 'string' || !/^[^./\\][^/\\]*$/.test(f)))
        throw new ConfigError(
          `fileSystemSource("${dir}"): resourceFolders must be folder names such as ['references', 'assets', 'scripts'].`,
        );
      this.folders = Object.freeze([...folders]);
    }
    this.root = resolve(dir);
    this.strict = options.strict === true;
    this.depth = depth;
    this.logger = options.logger ?? stderrLogger;
    this.maxSkillMdBytes = maxBytes;
  }

  reload(): void {
    this.generation++;
    this.current = undefined;
    this.scanning = undefined;
    this.parses.clear();
  }

  async listFrontmatters(options: SkillSourceCallOptions = {}): Promise<readonly SkillFrontmatter[]> {
    options.signal?.throwIfAborted();
    return (await this.listing(options)).frontmatters;
  }

  async loadFrontmatter(name: string, options: SkillSourceCallOptions = {}): Promise<SkillFrontmatter> {
    return (await this.entry(name, options)).frontmatter;
  }

  async loadInstructions(name: string, options: SkillSourceCallOptions = {}): Promise<string> {
    const entry = await this.entry(name, options);
    const path = `${entry.dir}${sep}SKILL.md`;
    const file = await readLimited(path, this.maxSkillMdBytes, name, 'SKILL.md');
    // SK-6: the per-skill operation re-reads and re-validates SKILL.md; an edit is picked up here.
    const parsed = wrapErrors(entry, () => parseSkillMd(file.text, { strict: this.strict, directoryName: entry.directoryName }));
    const key = frontmatterKey(file.text);
    if (this.parses.get(path)?.key === key) return parsed.body;
    // The file changed since it was listed: keep the new frontmatter, report its warnings.
    this.parses.set(path, { key, frontmatter: parsed.frontmatter });
    this.report(options, entry, parsed.warnings);
    if (parsed.frontmatter.name !== entry.frontmatter.name) {
      this.current = undefined;
      throw skillNotFound(name, `its SKILL.md now names it "${parsed.frontmatter.name}"`);
    }
    this.replace(entry, parsed.frontmatter);
    return parsed.body;
  }

  async listResources(name: string, subpath = '', options: SkillSourceCallOptions = {}): Promise<readonly string[]> {
    const entry = await this.entry(name, options);
    const base = await this.realDir(entry);
    const start = subpath === '' || subpath === '.' ? '' : cleanResourcePath(name, subpath);
    const files: string[] = [];
    const folders = start === '' ? (this.folders ?? ['']) : [start];
    for (const folder of folders) await walkFiles(base, folder, files);
    return files.filter((file) => file !== 'SKILL.md').sort();
  }

  async loadResource(name: string, path: string, options: LoadResourceOptions = {}): Promise<Uint8Array> {
    const entry = await this.entry(name, options);
    const cleaned = cleanResourcePath(name, path, this.folders);
    const base = await this.realDir(entry);
    let real: string;
    try {
      real = await realpath(join(base, cleaned));
    } catch (error) {
      if (isMissing(error)) throw resourceNotFound(name, cleaned);
      throw error;
    }
    if (!real.startsWith(base + sep))
      throw new SkillError(
        'SKILL_INVALID_RESOURCE_PATH',
        `invalid resource path "${quoted(cleaned, 200)}" for skill "${quoted(name)}": it leaves the skill folder through a symbolic link`,
        { skillName: name },
      );
    return (await readLimited(real, options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES, name, cleaned, true)).bytes;
  }

  private async entry(name: string, options: SkillSourceCallOptions): Promise<Entry> {
    options.signal?.throwIfAborted();
    const entry = (await this.listing(options)).byName.get(name);
    if (!entry) throw skillNotFound(name);
    return entry;
  }

  private realDir(entry: Entry): Promise<string> {
    entry.realDir ??= realpath(entry.dir).catch((error: unknown) => {
      entry.realDir = undefined;
      throw isMissing(error) ? skillNotFound(entry.frontmatter.name, 'its folder is gone') : error;
    });
    return entry.realDir;
  }

  /** Updates a skill's cached frontmatter after a re-read, keeping the listing's order. */
  private replace(entry: Entry, frontmatter: SkillFrontmatter): void {
    const listing = this.current;
    const old = entry.frontmatter;
    entry.frontmatter = frontmatter;
    if (listing?.byName.get(frontmatter.name) === entry)
      listing.frontmatters = Object.freeze(listing.frontmatters.map((item) => (item === old ? frontmatter : item)));
  }

  private async listing(options: SkillSourceCallOptions): Promise<Listing> {
    const current = this.current;
    // The warm path: one synchronous stat (microseconds) tells whether a skill folder came or went.
    if (current && rootStats(this.root).mtimeMs === current.rootMtimeMs) return current;
    if (!this.scanning) {
      const generation = this.generation;
      const scan = this.scan(options).finally(() => {
        if (this.scanning === scan) this.scanning = undefined;
      });
      this.scanning = scan;
      void scan.then(
        (listing) => {
          if (this.generation === generation) this.current = listing;
        },
        () => {},
      );
    }
    return this.scanning;
  }

  /**
   * Lists the skills afresh. The folder walk and the SKILL.md reads are synchronous calls made in
   * slices of at most 4 ms, with the event loop free in between: on Node 20, 1,000 small reads
   * through `fs/promises` cost several times more than the frontmatter parsing itself.
   */
  private async scan(options: SkillSourceCallOptions): Promise<Listing> {
    const rootMtimeMs = rootStats(this.root).mtimeMs;
    const slices = new TimeSlicer(SLICE_MS);
    const candidates: Candidate[] = [];
    await this.walk(this.root, '', 1, candidates, { folders: 0 }, slices);
    const byName = new Map<string, Entry>();
    const frontmatters: SkillFrontmatter[] = [];
    for (const candidate of candidates) {
      if (slices.due()) await slices.next();
      const result = this.read(candidate);
      if (!result) continue;
      const { parse } = result;
      if (parse.error) {
        // A SKILL.md that is a pipe, socket or device is never read, in either mode.
        if (this.strict && !isSkillError(parse.error, 'SKILL_NOT_A_FILE')) throw parse.error;
        if (result.fresh) this.warn(options, `${parse.error.message} (skipped)`);
        continue;
      }
      const frontmatter = parse.frontmatter!;
      if (result.fresh) this.report(options, candidate, result.warnings);
      const first = byName.get(frontmatter.name);
      if (first) {
        const message = `duplicate skill "${frontmatter.name}": ${first.label}/SKILL.md and ${candidate.label}/SKILL.md; rename one`;
        if (this.strict) throw new SkillError('SKILL_DUPLICATE', message, { skillName: frontmatter.name });
        this.warn(options, `${message} (the second is skipped)`);
        continue;
      }
      byName.set(frontmatter.name, { ...candidate, frontmatter });
      frontmatters.push(frontmatter);
    }
    return { rootMtimeMs, byName, frontmatters: Object.freeze(frontmatters) };
  }

  /** Collects the folders below `dir` in sorted pre-order, down to `depth` levels. */
  private async walk(
    dir: string,
    label: string,
    level: number,
    out: Candidate[],
    budget: { folders: number },
    slices: TimeSlicer,
  ): Promise<void> {
    if (slices.due()) await slices.next();
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (level === 1) throw unavailable(this.root, error);
      return;
    }
    const names: { name: string; real: boolean }[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      if (entry.isDirectory()) names.push({ name: entry.name, real: true });
      else if (entry.isSymbolicLink() && isFolder(join(dir, entry.name))) names.push({ name: entry.name, real: false });
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, real } of names) {
      if (++budget.folders > MAX_FOLDERS)
        throw new SkillError(
          'SKILL_SOURCE_UNAVAILABLE',
          `skills folder "${this.root}" has more than ${MAX_FOLDERS} folders within depth ${this.depth}; point fileSystemSource at the folder that holds the skills`,
        );
      const child = { dir: `${dir}${sep}${name}`, label: label ? `${label}/${name}` : name, directoryName: name };
      out.push(child);
      // Symbolic links to folders are skills, but never walked into: no loops.
      if (real && level < this.depth) await this.walk(child.dir, child.label, level + 1, out, budget, slices);
    }
  }

  /** Reads and parses a candidate's SKILL.md head; `undefined` when the folder has none. */
  private read(candidate: Candidate): ReadResult {
    const path = `${candidate.dir}${sep}SKILL.md`;
    let head;
    try {
      head = readSkillHead(path);
    } catch (error) {
      return { parse: { key: '', error: asSkillError(candidate, error) }, fresh: true, warnings: [] };
    }
    if (!head) return undefined;
    const { text } = head;
    // Unchanged frontmatter text, unchanged skill: no parse, and its warnings are not repeated.
    const key = frontmatterKey(text);
    const cached = this.parses.get(path);
    if (cached?.key === key) return { parse: cached, fresh: false, warnings: [] };
    let parse: CachedParse;
    let warnings: readonly string[] = [];
    try {
      const parsed = parseSkillMd(text, { strict: this.strict, directoryName: candidate.directoryName });
      parse = { key, frontmatter: parsed.frontmatter };
      warnings = parsed.warnings;
    } catch (error) {
      const cut = head.cut && isSkillError(error, 'SKILL_INVALID_FRONTMATTER');
      const tooLong = new SkillError(
        'SKILL_INVALID_FRONTMATTER',
        `invalid frontmatter: no closing '---' in the first ${HEAD_BYTES} bytes; keep the frontmatter short`,
      );
      parse = { key, error: asSkillError(candidate, cut ? tooLong : error) };
    }
    this.parses.set(path, parse);
    return { parse, fresh: true, warnings };
  }

  private report(options: SkillSourceCallOptions, candidate: Candidate, warnings: readonly string[]): void {
    for (const warning of warnings) this.warn(options, `${candidate.label}/SKILL.md: ${warning} (lenient mode)`);
  }

  private warn(options: SkillSourceCallOptions, message: string): void {
    (options.logger ?? this.logger).warn(`@adkit/skill-toolset: ${message}`);
  }
}

/**
 * Skills from a folder of skill folders (a path, or a `file:` URL such as
 * `new URL('./skills', import.meta.url)`) (SK-1, SK-6): each immediate subfolder holding a
 * `SKILL.md` is a skill (`depth` finds nested ones too); hidden folders and `node_modules` are
 * skipped, symbolic links to folders are followed. The frontmatter of every skill is read once and
 * cached: a listing costs one `stat` of the root while no skill folder is added or removed, and
 * `load_skill` re-reads its SKILL.md, so edits show there. `reload()` forgets everything.
 * Resources are files inside the skill's folder; paths that leave it, through `..` or a symbolic
 * link, are refused (SK-7).
 *
 * ```ts
 * const skills = skillToolset({ source: fileSystemSource('./skills') });
 * ```
 */
export function fileSystemSource(dir: string | URL, options: FileSystemSourceOptions = {}): FileSystemSource {
  return new FolderSource(dir, options);
}

function rootStats(root: string): Stats {
  try {
    return statSync(root);
  } catch (error) {
    throw unavailable(root, error);
  }
}

function unavailable(root: string, error: unknown): SkillError {
  return new SkillError('SKILL_SOURCE_UNAVAILABLE', `skills folder "${root}" cannot be read: ${errorMessage(error)}`, { cause: error });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The error with the SKILL.md's place in front, keeping its code. */
function asSkillError(candidate: Candidate, error: unknown): SkillError {
  const code = isSkillError(error) ? error.code : 'SKILL_INVALID_FRONTMATTER';
  return new SkillError(code, `${candidate.label}/SKILL.md: ${errorMessage(error)}`, { cause: error });
}

function wrapErrors<T>(entry: Entry, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw asSkillError(entry, error);
  }
}


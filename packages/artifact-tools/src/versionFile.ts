import type { Part } from '@adkit/flow';

/** The on-disk format of one artifact version; bump it when the layout changes. */
export const VERSION_FILE_FORMAT = 1;

/** The header line of a version file (JSON), before its payload bytes. */
export interface VersionFileHeader {
  format: number;
  /** The artifact's name as the caller gave it (paths on disk are hashed). */
  filename: string;
  /** The part without its payload field. */
  part: Part;
  /** Which field the raw bytes after the header fill: `text` (UTF-8) or `inlineData.data` (base64). */
  payload?: 'text' | 'inlineData';
}

const NEWLINE = 0x0a;

/**
 * Encodes one version: a JSON header line, then the payload as raw bytes, so a 50 MB image is
 * stored as 50 MB (not 67 MB of base64 inside JSON) and a text keeps its newlines as they are.
 * Base64 that would not come back identical (no padding, whitespace) stays in the header instead.
 */
export function encodeVersionFile(filename: string, part: Part): Buffer {
  const header: VersionFileHeader = { format: VERSION_FILE_FORMAT, filename, part };
  let payload: Buffer | undefined;
  if (typeof part.text === 'string') {
    const { text, ...rest } = part;
    header.part = rest;
    header.payload = 'text';
    payload = Buffer.from(text, 'utf8');
    // Lone surrogates do not survive UTF-8: keep such text in the (escaped) JSON header.
    if (payload.toString('utf8') !== text) {
      header.part = part;
      delete header.payload;
      payload = undefined;
    }
  } else if (typeof part.inlineData?.data === 'string') {
    const { data, ...blob } = part.inlineData;
    const bytes = Buffer.from(data, 'base64');
    if (bytes.toString('base64') === data) {
      header.part = { ...part, inlineData: blob };
      header.payload = 'inlineData';
      payload = bytes;
    }
  }
  const head = Buffer.from(`${JSON.stringify(header)}\n`, 'utf8');
  return payload ? Buffer.concat([head, payload]) : head;
}

/** Decodes a version file; throws on a file that is not one (or is of a newer format). */
export function decodeVersionFile(bytes: Buffer): VersionFileHeader {
  const end = bytes.indexOf(NEWLINE);
  if (end < 0) throw new Error('not an adkit artifact version file (no header line)');
  const header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as VersionFileHeader;
  if (typeof header !== 'object' || header === null || typeof header.filename !== 'string' || typeof header.part !== 'object' || header.part === null)
    throw new Error('not an adkit artifact version file (bad header)');
  if (header.format !== VERSION_FILE_FORMAT)
    throw new Error(
      `artifact version file format ${String(header.format)} is not supported (this release reads format ${VERSION_FILE_FORMAT}); upgrade @adkit/artifact-tools`,
    );
  const payload = bytes.subarray(end + 1);
  if (header.payload === 'text') header.part.text = payload.toString('utf8');
  else if (header.payload === 'inlineData') header.part.inlineData = { ...header.part.inlineData, data: payload.toString('base64') };
  return header;
}

/** Reads just the artifact name from a header line (listing needs no payload). */
export function filenameFromHeader(head: Buffer): string | undefined {
  const end = head.indexOf(NEWLINE);
  if (end < 0) return undefined;
  try {
    const header = JSON.parse(head.subarray(0, end).toString('utf8')) as Partial<VersionFileHeader>;
    return typeof header.filename === 'string' ? header.filename : undefined;
  } catch {
    return undefined;
  }
}

import { readFile } from 'node:fs/promises';
import { errorMessage } from '@adkit/flow';
import { load as loadYaml } from 'js-yaml';
import { OpenApiSpecError } from './errors.js';

/** An OpenAPI document after dereferencing: plain objects, `$ref`s replaced (cycles stay as shared objects). */
export type OpenApiDocument = Record<string, unknown>;

/** Where the description comes from: the document itself, a file path, or an http(s) URL. */
export type SpecSource = Record<string, unknown> | string | URL;

/** How a description is read. */
export interface LoadSpecOptions {
  /** The largest description read from a file or URL, in bytes. */
  maxSpecBytes: number;
  /** Time limit for downloading a description from a URL, in ms. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Reads an OpenAPI 3.0 or 3.1 description and dereferences it with `@readme/openapi-parser`
 * (README: why this parser). A document object is copied first, so the caller's object is never
 * changed. Only references inside the document are followed: a description cannot make this
 * process read local files or reach other hosts (bundle a description split over files first).
 * Swagger 2.0 is refused with the fix.
 */
export async function loadSpec(source: SpecSource, options: LoadSpecOptions): Promise<OpenApiDocument> {
  const label = describeSource(source);
  let document: unknown;
  if (typeof source === 'string' && !/^https?:\/\//i.test(source)) {
    document = await readSpecFile(source, options.maxSpecBytes);
  } else if (typeof source === 'string' || source instanceof URL) {
    document = await downloadSpec(new URL(source), options);
  } else {
    try {
      document = structuredClone(source);
    } catch (error) {
      throw new OpenApiSpecError(`openApiToolset: the spec object cannot be copied (${errorMessage(error)}); pass a plain JSON object.`, { cause: error });
    }
  }
  if (typeof document === 'string') document = parseText(document, label);
  checkVersion(document, label);
  const { dereference } = await import('@readme/openapi-parser');
  try {
    const resolved = await dereference(document as Parameters<typeof dereference>[0], {
      resolve: { external: false },
      dereference: { circular: true },
    });
    return resolved as unknown as OpenApiDocument;
  } catch (error) {
    throw new OpenApiSpecError(`openApiToolset: ${label} could not be dereferenced: ${errorMessage(error)}`, { cause: error });
  }
}

function describeSource(source: SpecSource): string {
  if (typeof source === 'string') return `the spec "${source}"`;
  if (source instanceof URL) return `the spec "${source.href}"`;
  return 'the spec object';
}

async function readSpecFile(path: string, maxBytes: number): Promise<string> {
  let text: Buffer;
  try {
    text = await readFile(path);
  } catch (error) {
    throw new OpenApiSpecError(`openApiToolset: cannot read the spec file "${path}": ${errorMessage(error)}`, { cause: error });
  }
  if (text.byteLength > maxBytes)
    throw new OpenApiSpecError(
      `openApiToolset: the spec file "${path}" has ${text.byteLength} bytes, more than maxSpecBytes (${maxBytes}); raise maxSpecBytes if you trust it.`,
    );
  return text.toString('utf8');
}

/** Downloads a description the app named, streamed and cut at `maxSpecBytes`. */
async function downloadSpec(url: URL, options: LoadSpecOptions): Promise<string> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json, application/yaml, text/yaml, */*' } });
    if (!response.ok) {
      await response.body?.cancel();
      throw new OpenApiSpecError(`openApiToolset: downloading the spec "${url.href}" failed with HTTP ${response.status}.`);
    }
    const reader = response.body?.getReader();
    if (!reader) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > options.maxSpecBytes) {
        await reader.cancel();
        throw new OpenApiSpecError(
          `openApiToolset: the spec "${url.href}" is larger than maxSpecBytes (${options.maxSpecBytes} bytes); raise maxSpecBytes if you trust it.`,
        );
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof OpenApiSpecError) throw error;
    const why = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : errorMessage(error);
    throw new OpenApiSpecError(`openApiToolset: downloading the spec "${url.href}" failed: ${why}`, { cause: error });
  }
}

/** JSON, else YAML (js-yaml, the reader the parser itself uses). */
function parseText(text: string, label: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new OpenApiSpecError(`openApiToolset: ${label} is not valid JSON: ${errorMessage(error)}`, { cause: error });
    }
  }
  try {
    // js-yaml's default schema reads JSON-compatible YAML only (no custom tags run code).
    return loadYaml(text);
  } catch (error) {
    throw new OpenApiSpecError(`openApiToolset: ${label} is neither JSON nor YAML: ${errorMessage(error)}`, { cause: error });
  }
}

function checkVersion(document: unknown, label: string): void {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new OpenApiSpecError(`openApiToolset: ${label} is not an OpenAPI document (expected an object with "openapi": "3.x").`);
  const doc = document as Record<string, unknown>;
  if (typeof doc.swagger === 'string')
    throw new OpenApiSpecError(
      `openApiToolset: ${label} is Swagger ${doc.swagger}; only OpenAPI 3.0 and 3.1 are supported. Convert it first (for example with the swagger2openapi package) and pass the result.`,
    );
  if (typeof doc.openapi !== 'string' || !/^3\.[01]\./.test(doc.openapi))
    throw new OpenApiSpecError(
      `openApiToolset: ${label} has "openapi": ${JSON.stringify(doc.openapi ?? null)}; expected "3.0.x" or "3.1.x".`,
    );
  if (typeof doc.paths !== 'object' || doc.paths === null)
    throw new OpenApiSpecError(`openApiToolset: ${label} has no "paths" object, so there are no operations to offer.`);
}

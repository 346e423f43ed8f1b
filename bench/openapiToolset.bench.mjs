// Listing GitHub's whole OpenAPI description (@octokit/openapi, api.github.com.json, ~13 MB,
// ~1,200 operations) with @adkit/openapi-toolset: a new toolset's first tools() (read, parse,
// dereference with @readme/openapi-parser, one schema and tool per operation) in a warmed-up
// process, the same in a fresh process, the heap the listed tools keep, and a warm tools() (the
// kept listing). JSON.parse of the same file is the baseline. Issue #28 sets no goal: measured
// for information. A smoke run lists a small description instead.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolContext } from '@adkit/flow/testing';
import { openApiToolset } from '@adkit/openapi-toolset';
import { alternate, alternateProcesses, counts, formatBytes, smoke } from './measure.mjs';

export const title = "openapi-toolset: listing GitHub's OpenAPI description";

const here = fileURLToPath(new URL('.', import.meta.url));
const quiet = { warn() {}, error() {} };

/** The description: GitHub's, or (smoke) a small one written to a temp file. */
async function specFile() {
  if (!smoke) return { path: createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json'), cleanup: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'adkit-bench-openapi-'));
  const path = join(dir, 'spec.json');
  const paths = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`/items${i}/{id}`, { get: { operationId: `get${i}`, parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] } }]),
  );
  await writeFile(path, JSON.stringify({ openapi: '3.1.0', info: { title: 's', version: '1' }, servers: [{ url: 'https://s.example.com' }], paths }));
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

async function list(path) {
  return openApiToolset({ spec: path }).tools(createToolContext({ logger: quiet }));
}

export async function run() {
  const { path, cleanup } = await specFile();
  try {
    const tools = await list(path);
    const slow = { warmup: 1, rounds: 5, minMs: 0, batch: 1 };
    const [parse, cold] = await alternate([async () => JSON.parse(await readFile(path, 'utf8')), () => list(path)], slow);

    const first = alternateProcesses(
      [
        "const { openApiToolset } = await import('@adkit/openapi-toolset'); const t = performance.now();" +
          `await openApiToolset({ spec: ${JSON.stringify(path)} }).tools({ logger: { warn() {}, error() {} } });` +
          'console.log(performance.now() - t);',
      ],
      { runs: 3, cwd: here },
    )[0];

    // The heap the listing keeps: the tools (declarations, argument plans) and nothing of the document.
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    let kept = await list(path);
    globalThis.gc?.();
    const retained = process.memoryUsage().heapUsed - before;
    const count = kept.length;
    kept = undefined;

    const toolset = openApiToolset({ spec: path });
    const ctx = createToolContext({ logger: quiet });
    await toolset.tools(ctx);
    const [warm] = await alternate([() => toolset.tools(ctx)], { warmup: 100, batch: 100 });

    return [
      { case: `JSON.parse of the description (${smoke ? 'smoke spec' : 'api.github.com.json'})`, ...parse, note: 'baseline' },
      { id: 'openapi.list.cold', case: `first tools() of a new toolset: ${tools.length} tools`, ...cold, ratio: cold.ns / parse.ns, note: 'for information' },
      { case: `first tools() in a fresh process (imports included, median of ${counts(3, 1)})`, ...first, ratio: first.ns / parse.ns, note: 'for information' },
      { id: 'openapi.list.heap', case: `heap kept by the ${count} listed tools (${formatBytes(Math.max(retained, 0))})`, bytes: Math.max(retained, 0) },
      { case: 'warm tools() (the kept listing, copied)', ...warm, ratio: warm.ns / parse.ns, note: 'per model step, for information' },
    ];
  } finally {
    await cleanup();
  }
}

/** Workload for a CPU profile of a cold listing. */
export const profiles = {
  cold: async (ms) => {
    const { path, cleanup } = await specFile();
    try {
      const end = performance.now() + ms;
      while (performance.now() < end) await list(path);
    } finally {
      await cleanup();
    }
  },
};

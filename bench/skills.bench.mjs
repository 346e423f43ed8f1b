// Listing 1,000 skill folders with @adkit/skill-toolset: cold (a new source, nothing cached: one
// readdir, then each SKILL.md's frontmatter read and parsed with `yaml`) and warm (the cached
// listing: one stat of the root), against reading the same 1,000 files with fs.readFile alone.
// Goals (issue #13): cold ≤ 50 ms, warm ≤ 1 ms. The OS file cache is warm in every case. "Cold"
// is a new source in a warmed-up process; the first listing of a fresh process (module loading
// and compilation included) is shown for information.
import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmRequest } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { fileSystemSource, skillToolset } from '@adkit/skill-toolset';
import { measure } from './measure.mjs';

export const title = 'skills: listing 1,000 skill folders';

const SKILLS = 1_000;
const here = fileURLToPath(new URL('.', import.meta.url));

function skillMd(i) {
  return [
    '---',
    `name: skill-${i}`,
    `description: "Guides decisions about topic ${i}. Use when someone asks 'how many nodes do I need', 'data doesn't fit on one node', 'need more throughput', 'cluster is slow', or 'how to shard'."`,
    'license: Complete terms in LICENSE.txt',
    'metadata:',
    '  author: bench',
    `  version: "1.${i}"`,
    '---',
    `# Skill ${i}`,
    '',
    'Step one. Step two. Step three.\n'.repeat(40),
  ].join('\n');
}

export async function run() {
  const root = await mkdtemp(join(tmpdir(), 'adkit-bench-skills-'));
  try {
    const paths = [];
    for (let i = 0; i < SKILLS; i++) {
      await mkdir(join(root, `skill-${i}`));
      const path = join(root, `skill-${i}`, 'SKILL.md');
      await writeFile(path, skillMd(i));
      paths.push(path);
    }
    const quiet = { warn() {}, error() {} };
    const slow = { warmup: 10, rounds: 7, minMs: 300, batch: 1 };

    const bare = await measure(() => Promise.all(paths.map((path) => readFile(path, 'utf8'))), slow);
    const cold = await measure(async () => {
      const listed = await fileSystemSource(root, { logger: quiet }).listFrontmatters();
      if (listed.length !== SKILLS) throw new Error(`listed ${listed.length} skills`);
    }, slow);

    const source = fileSystemSource(root, { logger: quiet });
    await source.listFrontmatters();
    const warm = await measure(() => source.listFrontmatters(), { warmup: 200, batch: 100 });

    const toolset = skillToolset({ source });
    const ctx = createToolContext({ logger: quiet });
    const step = await measure(() => toolset.processRequest(ctx, createLlmRequest()), { warmup: 200, batch: 100 });

    const firstRuns = [];
    const script =
      "const { fileSystemSource } = await import('@adkit/skill-toolset'); const t = performance.now();" +
      'await fileSystemSource(process.argv[1], { logger: { warn() {} } }).listFrontmatters();' +
      'console.log(performance.now() - t);';
    for (let i = 0; i < 5; i++)
      firstRuns.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script, root], { cwd: here, encoding: 'utf8' })) * 1e6);
    const first = firstRuns.sort((a, b) => a - b)[2];

    const goal = (ns, ms) => (ns <= ms * 1e6 ? `meets the goal of ≤ ${ms} ms` : `misses the goal of ≤ ${ms} ms`);
    return [
      { case: `fs.readFile of the ${SKILLS} SKILL.md files (no parsing)`, ns: bare, note: 'baseline' },
      { case: `cold listFrontmatters() (new source: readdir, read, yaml parse, validate)`, ns: cold, ratio: cold / bare, note: goal(cold, 50) },
      { case: 'first listFrontmatters() of a fresh process (median of 5)', ns: first, ratio: first / bare, note: 'for information' },
      { case: 'warm listFrontmatters() (cached; one stat of the root)', ns: warm, ratio: warm / bare, note: goal(warm, 1) },
      { case: 'warm processRequest (instruction + cached XML listing of 1,000 skills)', ns: step, ratio: step / bare, note: 'per model step' },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

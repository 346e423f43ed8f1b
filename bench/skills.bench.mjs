// Listing 1,000 skill folders with @adkit/skill-toolset: cold (a new source, nothing cached: the
// folder walk, then each SKILL.md's frontmatter read and parsed) and warm (the cached listing: one
// stat of the root), against reading the same 1,000 files with fs.readFile alone, in alternating
// rounds. Goals (issue #13): cold ≤ 50 ms, warm ≤ 1 ms. The OS file cache is warm in every case.
// "Cold" is a new source in a warmed-up process; the first listing of a fresh process (module
// loading and compilation included) is shown for information.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLlmRequest } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { fileSystemSource, skillToolset } from '@adkit/skill-toolset';
import { alternate, alternateProcesses, counts } from './measure.mjs';

export const title = 'skills: listing 1,000 skill folders';

const SKILLS = counts(1_000, 20);
const here = fileURLToPath(new URL('.', import.meta.url));
const quiet = { warn() {}, error() {} };

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

/** A temp folder of SKILLS skill folders; resolves to its path and the SKILL.md paths. */
async function skillsFolder() {
  const root = await mkdtemp(join(tmpdir(), 'adkit-bench-skills-'));
  const paths = [];
  for (let i = 0; i < SKILLS; i++) {
    await mkdir(join(root, `skill-${i}`));
    const path = join(root, `skill-${i}`, 'SKILL.md');
    await writeFile(path, skillMd(i));
    paths.push(path);
  }
  return { root, paths };
}

async function listCold(root) {
  const listed = await fileSystemSource(root, { logger: quiet }).listFrontmatters();
  if (listed.length !== SKILLS) throw new Error(`listed ${listed.length} skills, not ${SKILLS}`);
}

export async function run() {
  const { root, paths } = await skillsFolder();
  try {
    const slow = { warmup: 10, rounds: 7, minMs: 300, batch: 1 };
    const [bare, cold] = await alternate(
      [() => Promise.all(paths.map((path) => readFile(path, 'utf8'))), () => listCold(root)],
      slow,
    );

    const first = alternateProcesses(
      [
        "const { fileSystemSource } = await import('@adkit/skill-toolset'); const t = performance.now();" +
          `await fileSystemSource(${JSON.stringify(root)}, { logger: { warn() {} } }).listFrontmatters();` +
          'console.log(performance.now() - t);',
      ],
      { runs: 5, cwd: here },
    )[0];

    const source = fileSystemSource(root, { logger: quiet });
    await source.listFrontmatters();
    const toolset = skillToolset({ source });
    const ctx = createToolContext({ logger: quiet });
    const [warm, step] = await alternate(
      [() => source.listFrontmatters(), () => toolset.processRequest(ctx, createLlmRequest())],
      { warmup: 200, batch: 100 },
    );

    const goal = (ns, ms) => (ns <= ms * 1e6 ? `meets the goal of ≤ ${ms} ms` : `misses the goal of ≤ ${ms} ms`);
    return [
      { case: `fs.readFile of the ${SKILLS} SKILL.md files (no parsing)`, ...bare, note: 'baseline' },
      {
        case: 'cold listFrontmatters() (new source: folder walk, head reads, frontmatter parse, validation)',
        ...cold,
        ratio: cold.ns / bare.ns,
        note: goal(cold.ns, 50),
      },
      { case: 'first listFrontmatters() of a fresh process (median of 5)', ...first, ratio: first.ns / bare.ns, note: 'for information' },
      { case: 'warm listFrontmatters() (cached; one stat of the root)', ...warm, ratio: warm.ns / bare.ns, note: goal(warm.ns, 1) },
      {
        case: `warm processRequest (instruction + cached XML listing of ${SKILLS} skills)`,
        ...step,
        ratio: step.ns / bare.ns,
        note: 'per model step, for information',
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Workloads for a CPU profile (profile.mjs) when a goal is missed: each runs for `ms`. */
export const profiles = {
  cold: async (ms) => {
    const { root } = await skillsFolder();
    try {
      const end = performance.now() + ms;
      while (performance.now() < end) await listCold(root);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
  warm: async (ms) => {
    const { root } = await skillsFolder();
    try {
      const source = fileSystemSource(root, { logger: quiet });
      const end = performance.now() + ms;
      while (performance.now() < end) for (let i = 0; i < 1_000; i++) await source.listFrontmatters();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};

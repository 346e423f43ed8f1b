// The cold start of adkit: importing @adkit/flow + @adkit/function-tool in a fresh node process,
// against the goal of issue #9 (≤ 150 ms; it was 350–440 ms when TypeBox's compiler loaded at import).
// TypeBox's compiler now loads on a tool's first call; the other rows show where that cost went.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './measure.mjs';

export const title = 'cold import of @adkit/flow + @adkit/function-tool in a child process';

/** The goal: the import takes at most this long in a fresh process. */
const GOAL_MS = 150;
/** Fresh processes per case; the median is shown. */
const RUNS = 9;

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Runs `body` as an ES module in a fresh node process, `RUNS` times; the body prints milliseconds,
 * or `wall cpu` pairs. Returns the medians in ns (`cpu` is NaN when the body prints one number).
 */
function inFreshProcesses(body) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < RUNS; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', body], { cwd: here, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`the child process failed (${child.status}): ${child.stderr}`);
    const [ms, cpuMs] = child.stdout.trim().split(' ').map(Number);
    wall.push(ms * 1e6);
    cpu.push(cpuMs * 1e6);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const IMPORT = `await import('@adkit/flow'); await import('@adkit/function-tool');`;

export async function run() {
  const { wall: cold, cpu } = inFreshProcesses(`
    const start = process.cpuUsage();
    const t = performance.now();
    ${IMPORT}
    const used = process.cpuUsage(start);
    process.stdout.write(\`\${performance.now() - t} \${(used.user + used.system) / 1000}\`);`);
  const { wall: withTypeBox } = inFreshProcesses(
    `const t = performance.now(); ${IMPORT} await import('typebox'); process.stdout.write(String(performance.now() - t));`,
  );
  const { wall: firstCall } = inFreshProcesses(`
    ${IMPORT}
    const { functionTool } = await import('@adkit/function-tool');
    const { createToolContext } = await import('@adkit/flow/testing');
    const { default: Type } = await import('typebox');
    const tool = functionTool({ name: 'profile', description: 'd', parameters: Type.Object({ name: Type.String() }), execute: (a) => a });
    const ctx = createToolContext();
    const t = performance.now();
    await tool.run(ctx, { name: 'x' });
    process.stdout.write(String(performance.now() - t));`);
  const ms = cold / 1e6;
  return [
    {
      case: `import @adkit/flow + @adkit/function-tool (fresh process, median of ${RUNS})`,
      ns: cold,
      note: `${ms <= GOAL_MS ? 'meets' : 'MISSES'} the goal of ≤ ${GOAL_MS} ms`,
    },
    {
      case: 'the same, CPU time (user + system; steadier than wall time on a busy machine)',
      ns: cpu,
      ratio: cpu / cold,
      note: 'for information',
    },
    {
      case: "the same plus import('typebox') (what a file declaring schemas with Type adds)",
      ns: withTypeBox,
      ratio: withTypeBox / cold,
      note: 'for information',
    },
    {
      case: "a function tool's first call (loads TypeBox's compiler, compiles its schemas)",
      ns: firstCall,
      ratio: firstCall / cold,
      note: 'for information: paid once per tool, on first use',
    },
  ];
}

// The claims of issue #18 (goals tightened by #24), each checked against the rows the benchmarks returned: what adkit
// measured, its anchor (@google/adk, the raw SDK client, a bare call), the ratio, the goal, and
// whether the goal was met. A claim whose bench is missing, failed or returned no such row is
// "not measured yet", with the reason.
import { formatBytes, formatDuration, formatSpread, smoke } from './measure.mjs';

/** Thrown by a claim that cannot be evaluated: its line says "not measured yet" and why. */
class NotMeasured extends Error {}

/** A duration with the spread of its rounds: `1.23 µs (1.20–1.31 µs)`. */
function time(row) {
  const spread = formatSpread(row.samples);
  return spread ? `${formatDuration(row.ns)} (${spread})` : formatDuration(row.ns);
}

/** `4.80× faster` or `1.20× slower`: how much less time adkit takes than `other`. */
function faster(adkitNs, otherNs) {
  if (adkitNs <= 0) return 'adkit adds nothing measurable';
  return otherNs >= adkitNs ? `${(otherNs / adkitNs).toFixed(2)}× faster` : `${(adkitNs / otherNs).toFixed(2)}× slower`;
}

/**
 * One line of the table. `guarantees`, for a goal that may be missed: what the guarantees cost,
 * and whether the goal would be met without them (RESULTS.md shows it above the profile).
 */
function line({ measure, adkit, anchor, ratio, goal, met, profile, guarantees }) {
  return { measure, adkit, anchor, ratio, goal, status: met ? 'met' : 'missed', profile, guarantees };
}

/** A line whose goal is to be `times`× faster than @google/adk (`peer`). */
function fasterThanPeer({ measure, adkit, peer, anchor = '@google/adk', times, profile, guarantees }) {
  return line({
    guarantees,
    measure,
    adkit: time(adkit),
    anchor: `${anchor}: ${time(peer)}`,
    ratio: faster(adkit.ns, peer.ns),
    goal: `≥ ${times}× faster`,
    met: peer.ns / adkit.ns >= times,
    profile,
  });
}

/**
 * The rows of one bench, from `results` (bench name → `{rows}` or `{error}`), with a finder:
 * `find(idOrPrefix)` returns the row whose `id` is it or whose `case` starts with it.
 */
function benchRows(results, bench) {
  const result = results.get(bench);
  if (!result) throw new NotMeasured(`bench/${bench}.bench.mjs does not exist yet`);
  if (result.error) throw new NotMeasured(`bench/${bench}.bench.mjs failed: ${String(result.error.message ?? result.error).split('\n')[0]}`);
  return (key) => {
    const row = result.rows.find((r) => r.id === key || r.case.startsWith(key));
    if (!row) throw new NotMeasured(`bench/${bench}.bench.mjs returned no row "${key}"`);
    return row;
  };
}

/**
 * What the runner turn's guarantees cost, from turnCosts.bench.mjs (its own rounds, the peer's turn
 * among them), and whether the turn would be `times`× faster than @google/adk's without them;
 * undefined when that bench did not run or ran without the peer.
 */
function turnGuarantees(results, times) {
  const rows = results.get('turnCosts')?.rows;
  const find = (id) => rows?.find((row) => row.id === id);
  const [turn, guarded, unguarded, peer] = [find('turnCosts.turn'), find('turnCosts.guarded'), find('turnCosts.unguarded'), find('turnCosts.peer')];
  if (!turn || !guarded || !unguarded || !peer) return undefined;
  const pieces = rows
    .filter((row) => row.id?.startsWith('turnCosts.piece.'))
    .map((row) => `${row.case.split(':')[0]} ${formatDuration(row.ns)} (${((100 * row.ns) / turn.ns).toFixed(1)}%)`);
  const without = peer.ns / unguarded.ns;
  return (
    `In turnCosts.bench.mjs's rounds, the turn took ${formatDuration(turn.ns)} and @google/adk's ${formatDuration(peer.ns)} (${(peer.ns / turn.ns).toFixed(2)}×). ` +
    `Its guarded work, piece by piece: ${pieces.join(', ')}; together ${formatDuration(guarded.ns)}, ${((100 * guarded.ns) / turn.ns).toFixed(1)}% of the turn. ` +
    `Without it the turn would take ${formatDuration(unguarded.ns)}, ${without.toFixed(2)}× faster than @google/adk's: ` +
    (without >= times
      ? `the ${times}× goal is missed on these guarantees; the profile below shows where the rest of the turn goes.`
      : `still short of ${times}×, so the goal is missed on the flow's own work as well, not on the guarantees alone; the profile below shows where it goes.`)
  );
}

/**
 * What the validated call's guarantees cost at their least (the floor row of functionTool.bench.mjs:
 * its TypeBox check, the handler, one promise reaction applying the FT-5 rules), against the goal's
 * bound, and what each of the two costs (`parts`: the bare row and the results row, the handler
 * with the reaction alone).
 */
function callGuarantees(floor, bound, parts) {
  return (
    `The least any validated call with result rules can cost, the strict TypeBox check the tool makes first (FT-4: the arguments checked, unknown keys refused so that none reaches the handler), the handler and one promise reaction that turns its result into the response by the tool's own FT-5 rules (toJSON honoured, a non-object wrapped), took ${formatDuration(floor.ns)} in the same rounds; the goal allows ${formatDuration(bound.ns)} (${bound.name}). ` +
    `Of the floor's ${formatDuration(floor.ns - parts.bare.ns)} over the bare call, FT-5's reaction took ${formatDuration(parts.results.ns - parts.bare.ns)} (the handler with the reaction alone: ${formatDuration(parts.results.ns)}) and FT-4's strict check ${formatDuration(floor.ns - parts.results.ns)}. ` +
    (floor.ns > bound.ns
      ? 'Those guarantees alone exceed it, so the goal cannot be met while they run.'
      : `That leaves ${formatDuration(bound.ns - floor.ns)} for the rest of the call (the confirmation gate, the auth step, the response parts): the goal is missed on that work, not on the guarantees alone.`)
  );
}

/** Session sizes of the growth rows of sessions.bench.mjs. */
const GROWTH = /^(.*): turn at ([\d,]+) events$/;

/** The table of issue #18, in its order. Each claim turns the results into one or more lines. */
export const claims = [
  {
    measure: 'validated 5-field function-tool call',
    lineMeasures: ['validated 5-field function-tool call, vs @google/adk', 'validated 5-field function-tool call, vs a bare handler call'],
    lines(results) {
      const find = benchRows(results, 'functionTool');
      const [adkit, peer, bare, floor, reaction] = ['adkit', 'peer', 'bare', 'floor', 'results'].map((id) => find(`toolCall.${id}`));
      const parts = { bare, results: reaction };
      const profile = { file: 'functionTool.bench.mjs', workload: 'call' };
      return [
        fasterThanPeer({
          measure: 'validated 5-field function-tool call, vs @google/adk',
          adkit,
          peer,
          anchor: '@google/adk FunctionTool (zod)',
          times: 4,
          profile,
          guarantees: callGuarantees(floor, { ns: peer.ns / 4, name: "a quarter of @google/adk's call" }, parts),
        }),
        line({
          measure: 'validated 5-field function-tool call, vs a bare handler call',
          adkit: time(adkit),
          anchor: `bare handler: ${time(bare)}; strict check + handler + FT-5 in one reaction: ${time(floor)} (${(floor.ns / bare.ns).toFixed(2)}×)`,
          ratio: `${(adkit.ns / bare.ns).toFixed(2)}× the bare call`,
          // #24 tightened #18's ≤ 2×.
          goal: '≤ 1.5× a bare call',
          met: adkit.ns / bare.ns <= 1.5,
          profile,
          guarantees: callGuarantees(floor, { ns: bare.ns * 1.5, name: '1.5× the bare call' }, parts),
        }),
      ];
    },
  },
  {
    measure: 'one function call through a whole runner turn',
    lines(results) {
      const find = benchRows(results, 'peerAdk');
      const [adkit, peer] = [find('turn.adkit'), find('turn.peer')];
      const measure = 'one function call through a whole runner turn (same scripted model)';
      return [fasterThanPeer({ measure, adkit, peer, times: 6, profile: { file: 'peerAdk.bench.mjs', workload: 'turn' }, guarantees: turnGuarantees(results, 6) })];
    },
  },
  {
    measure: 'tool declarations per model step',
    lineMeasures: ['tool declarations per model step, 20 tools', 'tool declarations per model step, 100 tools'],
    lines(results) {
      const find = benchRows(results, 'toolDeclarations');
      return [20, 100].map((n) => {
        const [adkit, peer] = [find(`declarations.${n}.adkit`), find(`declarations.${n}.peer`)];
        const fastEnough = adkit.ns <= 200;
        // A difference at or below zero: adkit's cost is under the noise, so any positive peer cost is ≥ 50×.
        const ratioMet = adkit.ns <= 0 ? peer.ns > 0 : peer.ns / adkit.ns >= 50;
        return line({
          measure: `tool declarations per model step, ${n} tools (per tool per step)`,
          adkit: time(adkit),
          anchor: `@google/adk: ${time(peer)}`,
          ratio: faster(adkit.ns, peer.ns),
          goal: '≤ 0.2 µs per tool per step; ≥ 50× faster',
          met: fastEnough && ratioMet,
          profile: { file: 'toolDeclarations.bench.mjs', workload: 'declarations' },
        });
      });
    },
  },
  {
    measure: 'two slow tools in one turn, wall time',
    lines(results) {
      const find = benchRows(results, 'parallelTools');
      const [adkit, peer] = [find('parallel.adkit'), find('parallel.peer')];
      const goalMs = Math.round(adkit.delayMs * 1.025 * 100) / 100;
      return [
        line({
          measure: `two ${adkit.delayMs} ms tools in one turn, wall time`,
          adkit: time(adkit),
          anchor: `@google/adk (one after the other): ${time(peer)}`,
          ratio: faster(adkit.ns, peer.ns),
          goal: `≤ ${goalMs} ms`,
          met: adkit.ns <= goalMs * 1e6,
        }),
      ];
    },
  },
  {
    measure: '200 sessions × 5 turns, tool awaits 5 ms',
    lines(results) {
      const find = benchRows(results, 'concurrentSessions');
      const [adkit, peer] = [find('sessions200.adkit'), find('sessions200.peer')];
      const measure = adkit.case.replace(/^adkit: /, '');
      return [fasterThanPeer({ measure, adkit, peer, times: 4, profile: { file: 'concurrentSessions.bench.mjs', workload: 'sessions' } })];
    },
  },
  {
    measure: 'cold import in a child process',
    lineMeasures: ['cold import of flow + function-tool, child process', 'cold import of flow + function-tool + model-openai, child process'],
    lines(results) {
      const find = benchRows(results, 'coldImportPeer');
      const [core, openai, peer] = [find('coldImport.core'), find('coldImport.openai'), find('coldImport.peer')];
      return [
        [core, 'flow + function-tool', 'core'],
        [openai, 'flow + function-tool + model-openai', 'openai'],
      ].map(([row, what, workload]) =>
        line({
          measure: `cold import of ${what}, child process`,
          adkit: time(row),
          anchor: `import @google/adk: ${time(peer)}`,
          ratio: faster(row.ns, peer.ns),
          // #24: with model-openai ≤ 120 ms (the SDK loads on first request); #18's ≤ 150 ms otherwise.
          goal: workload === 'openai' ? '≤ 120 ms' : '≤ 150 ms',
          met: row.ns <= (workload === 'openai' ? 120e6 : 150e6),
          profile: { file: 'coldImportPeer.bench.mjs', workload },
        }),
      );
    },
  },
  {
    measure: 'install size',
    lineMeasures: ['install of flow + function-tool + model-openai from packed tarballs (npm, empty folder)'],
    lines(results) {
      const find = benchRows(results, 'installSize');
      if (smoke) throw new NotMeasured('a smoke run packs the tarballs but installs nothing');
      const [ours, total, peer] = [find('install.adkit'), find('install.total'), find('install.peer')];
      return [
        line({
          measure: 'install of flow + function-tool + model-openai from packed tarballs (npm, empty folder)',
          adkit: `${formatBytes(ours.bytes)}, ${ours.packages} packages without the openai SDK; ${formatBytes(total.bytes)}, ${total.packages} packages with it`,
          anchor: `@google/adk: ${formatBytes(peer.bytes)}, ${peer.packages} packages`,
          ratio: `${(peer.bytes / total.bytes).toFixed(1)}× smaller with the SDK, ${(peer.bytes / ours.bytes).toFixed(1)}× without`,
          goal: "adkit's packages and their non-SDK dependencies ≤ 10 MB",
          met: ours.bytes <= 10 * 2 ** 20,
        }),
      ];
    },
  },
  {
    measure: 'per-turn cost as the session grows',
    lineMeasures: ['per-turn cost at 10 / 100 / 1,000 / 5,000 stored events, each store'],
    lines(results) {
      benchRows(results, 'sessions');
      const all = results.get('sessions').rows;
      const stores = new Map();
      for (const row of all) {
        const match = GROWTH.exec(row.case);
        if (!match) continue;
        if (!stores.has(match[1])) stores.set(match[1], []);
        stores.get(match[1]).push({ size: Number(match[2].replaceAll(',', '')), row });
      }
      const peerLabel = [...stores.keys()].find((label) => label.startsWith('@google/adk'));
      if (!peerLabel) throw new NotMeasured('bench/sessions.bench.mjs returned no @google/adk rows');
      const series = (points) => points.map(({ row }) => formatDuration(row.ns)).join(' / ');
      const sizes = stores.get(peerLabel).map(({ size }) => size.toLocaleString('en')).join(' / ');
      const lines = [];
      for (const [label, points] of stores) {
        if (label === peerLabel) continue;
        const growth = points.at(-1).row.ns / points[0].row.ns;
        lines.push(
          line({
            measure: `per-turn cost at ${sizes} stored events, ${label.replace(/^adkit /, '')}`,
            adkit: series(points),
            anchor: `@google/adk in-memory: ${series(stores.get(peerLabel))}`,
            ratio: `${points.at(-1).size.toLocaleString('en')} vs ${points[0].size}: ${growth.toFixed(2)}×`,
            goal: `${points.at(-1).size.toLocaleString('en')} ≤ 3× the ${points[0].size} case`,
            met: growth <= 3,
            profile: { file: 'sessions.bench.mjs', workload: label },
          }),
        );
      }
      if (![...stores.keys()].some((label) => label.includes('Postgres')))
        lines.push({
          measure: `per-turn cost at ${sizes} stored events, PostgresSessionService`,
          status: 'not measured yet',
          reason: smoke
            ? 'a smoke run starts no Postgres server'
            : 'no Postgres server: set ADKIT_TEST_PG_URL or install the Postgres binaries (see packages/session-postgres)',
        });
      return lines;
    },
  },
  {
    measure: 'warm MCP tool call over stdio',
    lines(results) {
      const find = benchRows(results, 'mcpToolset');
      const [raw, ours] = [find('raw SDK client: warm'), find('mcpToolset:')];
      let peer;
      try {
        peer = find('@google/adk');
      } catch {
        peer = undefined;
      }
      return [
        line({
          measure: 'warm MCP tool call over stdio (server-everything get-sum)',
          adkit: time(ours),
          anchor: `raw SDK client: ${time(raw)}` + (peer ? `; @google/adk MCPToolset: ${time(peer)} (a new server process per call)` : ''),
          ratio: `${(ours.ns / raw.ns).toFixed(2)}× the raw client`,
          goal: '≤ 1.2× the raw client',
          met: ours.ns / raw.ns <= 1.2,
          profile: { file: 'mcpToolset.bench.mjs', workload: 'call' },
        }),
      ];
    },
  },
  {
    measure: 'list 1,000 skills',
    lineMeasures: ['list 1,000 skills, cold', 'list 1,000 skills, warm'],
    lines(results) {
      const find = benchRows(results, 'skills');
      const [bare, cold, warm] = [find('fs.readFile'), find('cold listFrontmatters'), find('warm listFrontmatters')];
      return [
        [cold, 'cold', 50, 'cold'],
        [warm, 'warm', 1, 'warm'],
      ].map(([row, what, ms, workload]) =>
        line({
          measure: `list 1,000 skills, ${what}`,
          adkit: time(row),
          anchor: `— (for scale: fs.readFile of the 1,000 files: ${time(bare)})`,
          ratio: '—',
          goal: `≤ ${ms} ms`,
          met: row.ns <= ms * 1e6,
          profile: { file: 'skills.bench.mjs', workload },
        }),
      );
    },
  },
];

/** Every line of every claim, for `results` (bench name → `{rows}` or `{error}`). */
export function evaluateClaims(results) {
  return claims.flatMap((claim) => {
    try {
      return claim.lines(results);
    } catch (error) {
      if (!(error instanceof NotMeasured)) throw error;
      // One line per line the claim would have, so the table keeps every row of the issue.
      return (claim.lineMeasures ?? [claim.measure]).map((measure) => ({ measure, status: 'not measured yet', reason: error.message }));
    }
  });
}

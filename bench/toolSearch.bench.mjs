// Tool search for large catalogs (#30 point 3): an agent with 1,000 function tools (the 5-field
// schema of functionTool.bench.mjs, distinct names and descriptions) sends every declaration on
// every step; the same agent with `toolSearch([catalog])` sends search_tools, and after a search
// search_tools and the tools found. Measured: the bytes of the declarations each request carries
// (what a provider bills as input tokens), and the cost of a one-step turn (the model answers at
// once) plain vs searched, before and after a search, round by round; then one search_tools call,
// the first of a listing (it builds the index) and a warm one. Issue #30 sets no goal: measured
// for information.
import { InMemoryRunner, LlmAgent } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { functionTool } from '@adkit/function-tool';
import { loadedToolsKey, toolSearch } from '@adkit/tool-search';
import { parameters } from './fiveFields.mjs';
import { alternate, counts, formatBytes } from './measure.mjs';
import { runTurn, userMessage } from './peer.mjs';

export const title = 'tool search: 1,000 tools declared plain vs through toolSearch';

const TOOLS = counts(1_000, 50);
const NOUNS = ['issue', 'pull request', 'repository', 'branch', 'release', 'workflow', 'gist', 'team', 'project', 'label'];
const VERBS = ['create', 'list', 'get', 'update', 'delete', 'archive', 'search', 'lock', 'merge', 'star'];
const execute = async (args) => ({ greeting: args.name });

function catalogTools() {
  return Array.from({ length: TOOLS }, (_, i) => {
    const verb = VERBS[i % VERBS.length];
    const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
    return functionTool({
      name: `${verb}_${noun.replace(' ', '_')}_${i}`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)}s a ${noun} (operation ${i} of the catalog).`,
      parameters,
      execute,
    });
  });
}

/** The bytes of JSON of the function declarations a request carries. */
const declarationBytes = (request) => Buffer.byteLength(JSON.stringify((request.config?.tools ?? []).flatMap((entry) => entry.functionDeclarations ?? [])));

/** A runner whose model answers at once and records what the first request of each turn declared. */
function turns(tools, state) {
  const seen = [];
  const model = {
    model: 'scripted',
    async *generateContent(request) {
      if (seen.length < 1) seen.push(declarationBytes(request));
      yield { content: { role: 'model', parts: [{ text: 'done' }] } };
    },
  };
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'agent', model, tools }), appName: 'bench' });
  return {
    bytes: () => seen[0],
    turn: async (i) => {
      await runner.sessionService.createSession({ appName: 'bench', userId: 'u', sessionId: `s${i}`, state });
      await runTurn(runner, `s${i}`, userMessage);
    },
  };
}

export async function run() {
  const tools = catalogTools();
  const catalog = { name: 'catalog', tools: async () => tools };
  const plain = turns(tools);
  // Session scope: the state a session has after a search that found 5 tools.
  const found = tools.slice(0, 5).map((tool) => tool.name);
  const none = turns([toolSearch([catalog])]);
  const afterSearch = turns([toolSearch([catalog], { scope: 'session' })], { [loadedToolsKey('tool_search', 'session')]: found });
  const options = { warmup: counts(200, 1), batch: counts(50, 1), minMs: counts(300, 1), rounds: counts(7, 1) };
  const [p, n, a] = await alternate([plain.turn, none.turn, afterSearch.turn], options);

  // One search_tools call: the first of a listing builds the index, later ones reuse it.
  const coldSearch = async () => {
    const listed = await toolSearch([catalog]).tools(createToolContext());
    return listed[0].run(createToolContext(), { query: 'merge a pull request' });
  };
  const warmTool = (await toolSearch([catalog]).tools(createToolContext()))[0];
  const warmSearch = () => warmTool.run(createToolContext(), { query: 'merge a pull request' });
  const [cold, warm] = await alternate([coldSearch, warmSearch], { warmup: counts(5, 1), batch: counts(5, 1), minMs: counts(300, 1), rounds: counts(7, 1) });

  return [
    { case: `declarations in each request, ${TOOLS} tools plain (${formatBytes(plain.bytes())})`, bytes: plain.bytes() },
    { case: `declarations in each request, toolSearch before a search (${formatBytes(none.bytes())})`, bytes: none.bytes() },
    { case: `declarations in each request, toolSearch after finding 5 (${formatBytes(afterSearch.bytes())})`, bytes: afterSearch.bytes() },
    { id: 'toolSearch.step.plain', case: `one-step turn, ${TOOLS} tools declared`, ...p, note: 'baseline' },
    { id: 'toolSearch.step.searched', case: 'one-step turn, toolSearch before a search', ...n, ratio: n.ns / p.ns, note: 'for information' },
    { case: 'one-step turn, toolSearch with 5 found (session state)', ...a, ratio: a.ns / p.ns, note: 'for information' },
    { case: `search_tools, first of a listing (builds the index over ${TOOLS} tools)`, ...cold, note: 'for information' },
    { case: 'search_tools, warm (the index kept)', ...warm, ratio: warm.ns / cold.ns, note: 'for information' },
  ];
}

/** Workload for a CPU profile: turns with toolSearch before a search. */
export const profiles = {
  searched: async (ms) => {
    const tools = catalogTools();
    const { turn } = turns([toolSearch([{ name: 'catalog', tools: async () => tools }])]);
    const end = performance.now() + ms;
    for (let i = 0; performance.now() < end; i++) await turn(i);
  },
};


// A stateless runner in its own Node process, on PostgresSessionService, loaded from the
// TypeScript sources (no build step; the module hooks are @adkit/artifact-tools' test ones).
// Usage: node runnerWorker.mjs <url> <schema> <worker-name>. Prints "ready", then reads JSON
// commands {id, op, …}, one a line, runs them concurrently and answers each with {id, …}:
// - {op: "run", sessionId, message, gate?}: one runner turn with that message (a Content); answers
//   {events: [summary…]} or {error: {code, message}}. With a gate, the run stops after loading the
//   session, before appending anything, until the gate opens (so two processes can be made to
//   load the same version of a session).
// - {op: "run", sessionId, message, hold}: with a hold, a confirmed `book` call waits at the gate
//   named `hold` after its row is written (the tool is running), until the test opens it.
// - {op: "reached", gate}: answers once a run has stopped at that gate. {op: "open", gate}: opens it.
// - {op: "round", turn, sessionIds, concurrency}: turn "turn <n>" on each session, `concurrency` at
//   a time; answers {turns, conflicts, errors: [message…]}.
// The agent's model is a pure function of the request (so any process may run any turn): a user
// "turn <n>" asks for `record`, a user "book <trip>" asks for `book` (which needs the user's
// confirmation), and a function response is answered with "done <tool>". Each tool run inserts a
// row into <schema>.tool_runs, so the test can count how often each call ran.
import { createInterface } from 'node:readline';
import { register } from 'node:module';

register('../../../artifact-tools/test/support/typescriptHooks.mjs', import.meta.url);
const [url, schema, worker] = process.argv.slice(2);
const { Pool } = await import('pg');
const { createUserContent, LlmAgent, Runner } = await import('@adkit/flow');
const { PostgresSessionService } = await import('../../src/postgresSessionService.ts');

const pool = new Pool({ connectionString: url, max: 12 });
const sessionService = new PostgresSessionService({ pool, schema });

const model = {
  model: 'stateless',
  async *generateContent(request) {
    const part = request.contents.at(-1)?.parts?.[0] ?? {};
    if (part.functionResponse) yield { content: { role: 'model', parts: [{ text: `done ${part.functionResponse.name}` }] } };
    else if (part.text?.startsWith('turn ')) yield call('record', { turn: Number(part.text.slice(5)) });
    else if (part.text?.startsWith('book ')) yield call('book', { trip: part.text.slice(5) });
    else yield { content: { role: 'model', parts: [{ text: `unexpected: ${JSON.stringify(part)}` }] } };
  },
};
const call = (name, args) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });

/** A tool that writes one row per run: the proof of how often each call ran. */
function recordingTool(name, needsConfirmation) {
  return {
    name,
    description: `${name} (test tool)`,
    declaration: () => ({ name, description: `${name} (test tool)`, parametersJsonSchema: { type: 'object' } }),
    async run(ctx, args) {
      if (needsConfirmation && !ctx.toolConfirmation) {
        ctx.requestConfirmation({ hint: `Approve ${name}?` });
        return { error: `${name} requires confirmation` };
      }
      if (needsConfirmation && !ctx.toolConfirmation.confirmed) return { error: `${name} was rejected` };
      await pool.query(`INSERT INTO "${schema}".tool_runs (session_id, call_id, tool, args, worker) VALUES ($1, $2, $3, $4, $5)`, [
        ctx.sessionId,
        ctx.functionCallId,
        name,
        JSON.stringify(args),
        worker,
      ]);
      const hold = ctx.context?.hold;
      if (hold) {
        gate(hold).reach();
        await gate(hold).opened;
      }
      return { ok: true, by: worker };
    },
  };
}

/** Named gates: a run waits at one after loading its session, until the test opens it. */
const gates = new Map();
function gate(name) {
  let entry = gates.get(name);
  if (!entry) {
    entry = {};
    entry.reached = new Promise((resolve) => (entry.reach = resolve));
    entry.opened = new Promise((resolve) => (entry.open = resolve));
    gates.set(name, entry);
  }
  return entry;
}
const gatePlugin = {
  name: 'gate',
  async beforeRunCallback({ context }) {
    const name = context.context?.gate;
    if (!name) return undefined;
    gate(name).reach();
    await gate(name).opened;
    return undefined;
  },
};

const agent = new LlmAgent({ name: 'clerk', model, tools: [recordingTool('record', false), recordingTool('book', true)] });
const runner = new Runner({ appName: 'load', agent, sessionService, plugins: [gatePlugin] });

async function runTurn(sessionId, message, gateName, hold) {
  const events = [];
  const context = gateName || hold ? { gate: gateName, hold } : undefined;
  for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage: message, context }))
    if (!event.partial)
      events.push({
        author: event.author,
        text: event.content?.parts?.find((p) => p.text)?.text,
        calls: event.content?.parts?.filter((p) => p.functionCall).map((p) => p.functionCall),
        responses: event.content?.parts?.filter((p) => p.functionResponse).map((p) => p.functionResponse),
        errorCode: event.errorCode,
        errorMessage: event.errorMessage,
      });
  return events;
}

async function handle(command) {
  if (command.op === 'run') {
    try {
      return { events: await runTurn(command.sessionId, command.message, command.gate, command.hold) };
    } catch (error) {
      return { error: { code: error.code, message: error.message } };
    }
  }
  if (command.op === 'reached') {
    await gate(command.gate).reached;
    return {};
  }
  if (command.op === 'open') {
    gate(command.gate).open();
    return {};
  }
  if (command.op === 'round') {
    const queue = [...command.sessionIds];
    const result = { turns: 0, conflicts: 0, errors: [] };
    await Promise.all(
      Array.from({ length: command.concurrency }, async () => {
        for (let sessionId = queue.shift(); sessionId !== undefined; sessionId = queue.shift()) {
          try {
            const events = await runTurn(sessionId, createUserContent(`turn ${command.turn}`));
            const last = events.at(-1);
            if (last?.text !== 'done record') result.errors.push(`${sessionId}: turn ${command.turn} ended with ${JSON.stringify(last)}`);
            result.turns++;
          } catch (error) {
            if (error.code === 'SESSION_CONFLICT') result.conflicts++;
            else result.errors.push(`${sessionId}: ${error.message}`);
          }
        }
      }),
    );
    return result;
  }
  return { error: { code: 'BAD_COMMAND', message: `unknown op ${command.op}` } };
}

process.stdout.write('ready\n');
const running = [];
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  running.push(handle(command).then((answer) => process.stdout.write(`${JSON.stringify({ id: command.id, ...answer })}\n`)));
}
await Promise.all(running);
await sessionService.close();
await pool.end();

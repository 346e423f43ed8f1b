// The tool-output budget (LlmAgent's maxToolOutputBytes): a result over it is saved as an artifact
// and the model gets a head, the size and the artifact's name. Bad input tried: a 50 MB result
// through a real runner (it must never reach the model request), multi-byte characters cut at the
// head's edge, a result exactly at the limit, quotes that grow when escaped, an error message of
// 5 MB, no artifact service and a failing one, call ids and tool names that are not file names,
// a long-running call that answers later, and budgets that are too small or not numbers.
import { describe, expect, it } from 'vitest';
import {
  createUserContent,
  InMemoryArtifactService,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type ArtifactService,
  type Event,
  type Part,
  type RunnableTool,
} from '../src/index.js';
import { budgetToolOutput } from '../src/llmFlow/toolOutputBudget.js';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '../src/testing/index.js';

function budget(response: Record<string, unknown>, maxBytes: number, options: { artifactService?: ArtifactService; warnings?: string[]; toolName?: string; id?: string } = {}) {
  const warnings = options.warnings ?? [];
  const context = createToolContext({
    artifactService: options.artifactService,
    logger: { warn: (message: string) => void warnings.push(message), error: () => {} },
  });
  return { context, result: budgetToolOutput({ toolName: options.toolName ?? 'get_logs', functionCallId: options.id ?? 'call-1', response, maxBytes, context }) };
}

const decode = (part: Part | undefined) => Buffer.from(part?.inlineData?.data ?? '', 'base64').toString('utf8');

describe('budgetToolOutput', () => {
  it('hands back a response within the budget unchanged, the same object, up to the last byte', async () => {
    const response = { result: 'x'.repeat(1024 - '{"result":""}'.length) };
    expect(JSON.stringify(response)).toHaveLength(1024);
    const { result, context } = budget(response, 1024);
    expect(await result).toBe(response);
    expect(context.actions.artifactDelta).toEqual({});
  });

  it('saves a larger one whole as an artifact and answers with the head, the size and the name', async () => {
    const store = new InMemoryArtifactService();
    const response = { lines: Array.from({ length: 500 }, (_, i) => `line ${i}`) };
    const json = JSON.stringify(response);
    const { result, context } = budget(response, 2000, { artifactService: store });
    expect(await result).toEqual({
      truncated: true,
      sizeBytes: json.length,
      head: json.slice(0, 500),
      artifact: 'tool-outputs/get_logs-call-1.json',
      note:
        `The result of get_logs is ${json.length} bytes of JSON, more than this agent takes at once (maxToolOutputBytes: 2000); "head" holds its first 500 bytes. ` +
        'The whole result is saved as the artifact "tool-outputs/get_logs-call-1.json"; load it with load_artifacts only if you need more than the head.',
    });
    expect(context.actions.artifactDelta).toEqual({ 'tool-outputs/get_logs-call-1.json': 0 });
    const saved = await context.loadArtifact('tool-outputs/get_logs-call-1.json');
    expect(saved?.inlineData).toMatchObject({ mimeType: 'application/json', displayName: 'get_logs result' });
    expect(JSON.parse(decode(saved))).toEqual(response);
  });

  it('counts bytes, not characters, and never cuts a character in two', async () => {
    // 'é' is 2 bytes, '中' 3, '😀' 4: 700 of any are over a 1200-byte budget.
    for (const char of ['é', '😀', '中']) {
      const response = { text: char.repeat(700) };
      const answer = (await budget(response, 1200).result) as { head: string; sizeBytes: number };
      expect(answer.sizeBytes).toBe(Buffer.byteLength(JSON.stringify(response)));
      expect(answer.head).not.toContain('\ufffd');
      expect(Buffer.byteLength(answer.head)).toBeLessThanOrEqual(300);
      expect(JSON.stringify(response).startsWith(answer.head)).toBe(true);
    }
    // 1000 ASCII characters fit a 1024-byte budget; 1000 two-byte ones do not.
    expect(await budget({ t: 'a'.repeat(990) }, 1024).result).toEqual({ t: 'a'.repeat(990) });
    expect(await budget({ t: 'é'.repeat(990) }, 1024).result).toMatchObject({ truncated: true });
  });

  it('keeps at most 2048 bytes of head, and the answer stays small whatever the result', async () => {
    const answer = await budget({ result: '"\\'.repeat(1_000_000) }, 100_000).result;
    expect(Buffer.byteLength((answer as { head: string }).head)).toBe(2048);
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThan(5000);
  });

  it('makes a file name of any tool name and call id', async () => {
    const store = new InMemoryArtifactService();
    const { result } = budget({ r: 'x'.repeat(5000) }, 1024, { artifactService: store, toolName: 'mcp.fetch', id: '../../etc/passwd\u0000' });
    expect(await result).toMatchObject({ artifact: 'tool-outputs/mcp.fetch-____etc_passwd_.json' });
  });

  it('without a place to save, answers with the head and says why, and warns; the full result is never sent', async () => {
    const warnings: string[] = [];
    const failing: ArtifactService = Object.assign(Object.create(new InMemoryArtifactService()) as ArtifactService, {
      saveArtifact: async () => {
        throw new Error('disk full');
      },
    });
    const answer = (await budget({ r: 'x'.repeat(5000) }, 1024, { artifactService: failing, warnings }).result) as Record<string, unknown>;
    expect(answer).toEqual({
      truncated: true,
      sizeBytes: 5008,
      head: '{"r":"' + 'x'.repeat(250),
      note:
        'The result of get_logs is 5008 bytes of JSON, more than this agent takes at once (maxToolOutputBytes: 1024); "head" holds its first 256 bytes. ' +
        'The whole result could not be saved (disk full), so only the head is available; ask for less, e.g. with narrower arguments.',
    });
    expect(warnings).toEqual([
      'adkit: the result of get_logs (5008 bytes) is over maxToolOutputBytes and could not be saved as an artifact: disk full',
    ]);
  });
});

describe('LlmAgent maxToolOutputBytes, end to end', () => {
  const FIFTY_MB = 50 * 1024 * 1024;
  const bigTool = (size: number, extra: Partial<RunnableTool> = {}): RunnableTool => ({
    name: 'dump_logs',
    description: 'Returns every log line.',
    declaration: () => ({ name: 'dump_logs', description: 'Returns every log line.', parametersJsonSchema: { type: 'object' } }),
    run: async () => ({ log: 'L'.repeat(size) }),
    ...extra,
  });

  async function run(agent: LlmAgent, artifactService: ArtifactService | undefined, warnings: string[] = []) {
    const runner = new Runner({
      appName: 'ops',
      agent,
      sessionService: new InMemorySessionService(),
      artifactService,
      autoCreateSession: true,
      logger: { warn: (message: string) => void warnings.push(message), error: () => {} },
    });
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('logs please') })) events.push(event);
    return events;
  }

  it('a 50 MB tool result never reaches the model request; the model gets the head, the size and the artifact', { timeout: 30_000 }, async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'dump_logs', id: 'call-9' }]), textResponse('The logs are big.')]);
    const agent = new LlmAgent({ name: 'ops', model, tools: [bigTool(FIFTY_MB)], maxToolOutputBytes: 64 * 1024 });
    const store = new InMemoryArtifactService();
    const events = await run(agent, store);

    const request = model.requests[1]!;
    const size = Buffer.byteLength(JSON.stringify({ model: request.model, contents: request.contents, config: request.config }));
    expect(size).toBeLessThan(16 * 1024);
    const response = request.contents.at(-1)!.parts![0]!.functionResponse!;
    expect(response).toMatchObject({
      id: 'call-9',
      name: 'dump_logs',
      response: { truncated: true, sizeBytes: FIFTY_MB + '{"log":""}'.length, artifact: 'tool-outputs/dump_logs-call-9.json' },
    });
    expect((response.response as { head: string }).head).toBe(`{"log":"${'L'.repeat(2048 - 8)}`);

    // The session keeps the short answer too; the artifact holds all of it, recorded on the event.
    const responseEvent = events.find((e) => e.content?.parts?.[0]?.functionResponse)!;
    expect(JSON.stringify(responseEvent).length).toBeLessThan(16 * 1024);
    expect(responseEvent.actions.artifactDelta).toEqual({ 'tool-outputs/dump_logs-call-9.json': 0 });
    const saved = await store.loadArtifact({ appName: 'ops', userId: 'u', sessionId: 's', filename: 'tool-outputs/dump_logs-call-9.json' });
    expect(Buffer.from(saved!.inlineData!.data!, 'base64').length).toBe(FIFTY_MB + '{"log":""}'.length);
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe('The logs are big.');
  });

  it('without an artifact service the model still gets only the head, and the logger a warning', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'dump_logs', id: 'c' }]), textResponse('ok')]);
    const warnings: string[] = [];
    await run(new LlmAgent({ name: 'ops', model, tools: [bigTool(1_000_000)], maxToolOutputBytes: 10_000 }), undefined, warnings);
    const response = model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response!;
    expect(response).toMatchObject({ truncated: true, sizeBytes: 1_000_010 });
    expect(response).not.toHaveProperty('artifact');
    expect(warnings).toEqual([expect.stringContaining('adkit: the result of dump_logs (1000010 bytes) is over maxToolOutputBytes and could not be saved as an artifact: artifact service is not set')]);
  });

  it('cuts an error message over the budget; leaves small results, and agents without a budget, alone', async () => {
    const failing = bigTool(0, {
      run: async () => {
        throw new Error(`boom ${'E'.repeat(5 * 1024 * 1024)}`);
      },
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'dump_logs' }]), textResponse('ok')]);
    await run(new LlmAgent({ name: 'ops', model, tools: [failing], maxToolOutputBytes: 4096 }), new InMemoryArtifactService());
    const error = (model.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response as { error: string }).error;
    expect(error).toBe(`boom ${'E'.repeat(1024 - 5)}… [error message cut: ${5 * 1024 * 1024 + 5} bytes, over maxToolOutputBytes 4096]`);

    const small = new ScriptedModel([functionCallResponse([{ name: 'dump_logs' }]), textResponse('ok')]);
    await run(new LlmAgent({ name: 'ops', model: small, tools: [bigTool(100)], maxToolOutputBytes: 4096 }), new InMemoryArtifactService());
    expect(small.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual({ log: 'L'.repeat(100) });

    const unbounded = new ScriptedModel([functionCallResponse([{ name: 'dump_logs' }]), textResponse('ok')]);
    await run(new LlmAgent({ name: 'ops', model: unbounded, tools: [bigTool(100_000)] }), new InMemoryArtifactService());
    expect(unbounded.requests[1]!.contents.at(-1)!.parts![0]!.functionResponse!.response).toEqual({ log: 'L'.repeat(100_000) });
  });

  it('refuses a budget that is not a whole number of at least 1024 bytes, naming the fix', () => {
    for (const bad of [0, 1023, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4096' as unknown as number])
      expect(() => new LlmAgent({ name: 'ops', maxToolOutputBytes: bad })).toThrow(
        `LlmAgent "ops": maxToolOutputBytes must be a whole number of bytes, at least 1024 (e.g. 100000), got ${String(bad)}.`,
      );
  });
});

// The contracts the tool packs stand on (#9, "Contracts the packs need"): the per-run context, the
// logger, progress carrying events, the resume slot and resumable tools, closing, adding sessions
// to memory, and a core that imports no `node:` module. Bad input tried: a secret in the per-run
// context (it must appear in no event, state or request), a toolset whose close() hangs while
// others fail, a memory service that throws after a run, a resumable tool answered twice.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  Runner,
  InMemorySessionService,
  InMemoryMemoryService,
  createUserContent,
  getFunctionResponses,
  type Event,
  type Logger,
  type ReadonlyContext,
  type ResumableTool,
  type Toolset,
} from '../src/index.js';
import { ScriptedModel, functionCallResponse, textResponse } from '../src/testing/index.js';
import { rawTool } from './support.js';

describe('the per-run context', () => {
  it('reaches tools, toolsets, instruction providers and callbacks, and is never saved or sent', async () => {
    const seen: Record<string, unknown> = {};
    const context = { token: 'sk-secret-123', tenant: 'acme' };
    const tool = rawTool('whoami', (_args, ctx) => ((seen.tool = ctx.context), { tenant: (ctx.context as typeof context).tenant }));
    const toolset: Toolset = {
      name: 'per-user',
      tools: async (ctx: ReadonlyContext) => ((seen.toolset = ctx.context), [tool]),
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'whoami', id: 'w' }]), textResponse('You are acme.')]);
    const agent = new LlmAgent({
      name: 'a',
      model,
      toolsets: [toolset],
      instruction: (ctx) => ((seen.instruction = ctx.context), 'Be kind.'),
      beforeToolCallback: ({ context: ctx }) => void (seen.beforeTool = ctx.context),
      beforeModelCallback: ({ context: ctx }) => void (seen.beforeModel = ctx.context),
    });
    const runner = new InMemoryRunner({ agent, autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('who am I?'), context }))
      events.push(e);
    expect(seen).toEqual({ tool: context, toolset: context, instruction: context, beforeTool: context, beforeModel: context });
    const session = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' });
    const everything = JSON.stringify([events, session, model.requests]);
    expect(everything).not.toContain('sk-secret-123');
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ tenant: 'acme' });
  });

  it('is {} when the caller gives none', async () => {
    let got: unknown;
    const model = new ScriptedModel([functionCallResponse([{ name: 't', id: 't' }]), textResponse('ok')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [rawTool('t', (_a, ctx) => ((got = ctx.context), {}))] }), autoCreateSession: true });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('x') }));
    expect(got).toEqual({});
  });
});

describe('the logger', () => {
  it('contexts carry the runner\'s logger; runner warnings go there, not to stdout', async () => {
    const lines: string[] = [];
    const logger: Logger = { warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
    const memory = new InMemoryMemoryService();
    memory.addSessionToMemory = () => Promise.reject(new Error('index offline'));
    let toolLogger: Logger | undefined;
    const model = new ScriptedModel([functionCallResponse([{ name: 't', id: 't' }]), textResponse('ok')]);
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'a', model, tools: [rawTool('t', (_a, ctx) => ((toolLogger = ctx.logger), {}))] }),
      sessionService: new InMemorySessionService(),
      memoryService: memory,
      addSessionsToMemory: true,
      autoCreateSession: true,
      logger,
    });
    for await (const _ of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('x') }));
    expect(toolLogger).toBe(logger);
    expect(lines).toEqual(['warn adkit: adding session "s" to memory failed: index offline']);
  });
});

describe('progress that carries events', () => {
  it('a tool forwards a nested event; the partial progress event carries it, tagged with the call', async () => {
    const child = { id: 'child-1', invocationId: 'inner', author: 'helper', timestamp: 1, actions: { stateDelta: {}, artifactDelta: {} }, content: { role: 'model', parts: [{ text: 'thinking' }] } };
    const tool = rawTool('delegate', (_a, ctx) => (ctx.reportProgress({ event: child, fraction: 0.5 }), { ok: true }));
    const model = new ScriptedModel([functionCallResponse([{ name: 'delegate', id: 'd1' }]), textResponse('done')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [tool] }), autoCreateSession: true });
    const events: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('x') })) events.push(e);
    const progress = events.find((e) => e.partial)!;
    expect(progress.toolProgress).toEqual({ functionCallId: 'd1', toolName: 'delegate', event: child, fraction: 0.5 });
    const stored = await runner.sessionService.getSession({ appName: runner.appName, userId: 'u', sessionId: 's' });
    expect(stored!.events.some((e) => e.toolProgress)).toBe(false);
  });
});

describe('the resume slot', () => {
  it('a confirmation-paused call gets back what it saved with setResumeState', async () => {
    const resumes: unknown[] = [];
    const tool = rawTool('book', (_args, ctx) => {
      resumes.push(ctx.resumeState);
      if (!ctx.toolConfirmation) {
        ctx.setResumeState({ quote: 412, currency: 'EUR' });
        ctx.requestConfirmation({ hint: 'Book for 412 EUR?' });
        return { status: 'waiting' };
      }
      return { booked: true, price: (ctx.resumeState as { quote: number }).quote };
    });
    const model = new ScriptedModel([functionCallResponse([{ name: 'book', id: 'b1' }]), textResponse('Booked.')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [tool] }), autoCreateSession: true });
    const first: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('book') })) first.push(e);
    expect(first[1]!.actions.resumeStates).toEqual({ b1: { quote: 412, currency: 'EUR' } });
    const request = first[2]!.content!.parts![0]!.functionCall!;
    const reply = { role: 'user', parts: [{ functionResponse: { id: request.id, name: request.name, response: { confirmed: true } } }] };
    const second: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: reply })) second.push(e);
    expect(resumes).toEqual([undefined, { quote: 412, currency: 'EUR' }]);
    expect(getFunctionResponses(second[1]!)[0]!.response).toEqual({ booked: true, price: 412 });
  });

  it('a resumable tool pauses on its own, and its resume() turns the client\'s answer into the response the model sees', async () => {
    const calls: string[] = [];
    const ticket: ResumableTool & ReturnType<typeof rawTool> = {
      ...rawTool('open_ticket', (_args, ctx) => {
        calls.push('run');
        ctx.setResumeState({ queue: 'it' });
        return undefined; // paused: the client answers later
      }),
      async resume(ctx, response) {
        calls.push(`resume ${JSON.stringify(ctx.resumeState)} ${JSON.stringify(response)}`);
        return { ticket: response.id, queue: (ctx.resumeState as { queue: string }).queue };
      },
    };
    const model = new ScriptedModel([functionCallResponse([{ name: 'open_ticket', id: 't1' }]), textResponse('Ticket 7 is open.')]);
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model, tools: [ticket] }), autoCreateSession: true });
    const first: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: createUserContent('VPN down') })) first.push(e);
    expect(first.at(-1)!.longRunningToolIds).toEqual(['t1']);
    expect(model.requests).toHaveLength(1);
    const answer = { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'open_ticket', response: { id: 7 } } }] };
    const second: Event[] = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: answer })) second.push(e);
    expect(calls).toEqual(['run', 'resume {"queue":"it"} {"id":7}']);
    expect(second[0]!.actions.startedToolCalls).toEqual(['t1']);
    expect(getFunctionResponses(second[1]!)[0]!.response).toEqual({ ticket: 7, queue: 'it' });
    expect(second.at(-1)!.content!.parts![0]!.text).toBe('Ticket 7 is open.');
    // Answered once; the same answer sent again is handed to the model, not to resume() again.
    expect(calls).toHaveLength(2);
  });
});

describe('closing', () => {
  it('close() reaches toolsets and tools with close(), all at once; await using closes the runner', async () => {
    const order: string[] = [];
    const slowClose = (name: string, ms: number) => async () => {
      order.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`end ${name}`);
    };
    const tool = { ...rawTool('conn', () => ({})), close: slowClose('tool', 50) };
    const toolset: Toolset = { name: 'mcp', tools: async () => [], close: slowClose('toolset', 50) };
    const agent = new LlmAgent({ name: 'a', tools: [tool], toolsets: [toolset] });
    {
      await using runner = new InMemoryRunner({ agent });
      void runner;
    }
    expect(order.slice(0, 2).sort()).toEqual(['start tool', 'start toolset']);
    expect(order).toHaveLength(4);
  });
});

describe('a portable core', () => {
  it('@adkit/flow imports no node: module (Web Crypto for ids and digests)', () => {
    const root = fileURLToPath(new URL('../src', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/from '(node:)?(crypto|fs|path|os|events|util|stream|child_process)'|from 'node:/.test(readFileSync(path, 'utf8')))
          offenders.push(path.slice(root.length));
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});

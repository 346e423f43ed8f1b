// PK-5: filterToolset and allowedTools, and BaseToolset's toolFilter. Bad input tried: a missing
// toolset, a missing or non-function predicate, allowedTools with a non-array or a number in it,
// a toolset whose tools() fails, a predicate that throws, BaseToolset options of the wrong type.
import {
  ConfigError,
  createLlmRequest,
  LlmAgent,
  type ReadonlyContext,
  type RunnableTool,
  type LlmRequest,
  type Tool,
  type ToolContext,
  type Toolset,
} from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { allowedTools, BaseToolset, filterToolset, isRequestProcessor } from '../src/index.js';
import { rawTool, runOnce } from './support.js';

const ctx = createToolContext();

function toolset(names: readonly string[], extra: Partial<Toolset> & Record<string, unknown> = {}): Toolset {
  const tools = names.map((name) => rawTool(name));
  return { name: 'github', tools: async () => tools, ...extra };
}

const names = (tools: readonly Tool[]) => tools.map((tool) => tool.name);

describe('filterToolset (PK-5)', () => {
  it('PK-5: keeps the toolset name and the inner order', async () => {
    const filtered = filterToolset(toolset(['d', 'c', 'b', 'a']), (_ctx, tool) => tool.name !== 'c');
    expect(filtered.name).toBe('github');
    expect(names(await filtered.tools(ctx))).toEqual(['d', 'b', 'a']);
  });

  it('PK-5: allowedTools matches exact names, in the toolset\'s order, not the list\'s', async () => {
    const filtered = filterToolset(toolset(['search', 'search_code', 'create_issue', 'get_issue']), allowedTools(['get_issue', 'search', 'nope']));
    expect(names(await filtered.tools(ctx))).toEqual(['search', 'get_issue']);
  });

  it('PK-5: the predicate gets the readonly context and may be async', async () => {
    const seen: string[] = [];
    const filtered = filterToolset(toolset(['read', 'write']), async (context: ReadonlyContext, tool) => {
      seen.push(`${context.userId}:${tool.name}`);
      return tool.name === 'read' || context.userId === 'admin';
    });
    expect(names(await filtered.tools(ctx))).toEqual(['read']);
    expect(seen).toEqual(['test-user:read', 'test-user:write']);
  });

  it('PK-5: only the kept tools are declared to the model and callable', async () => {
    const model = new ScriptedModel([functionCallResponse([{ name: 'write' }]), textResponse('ok')]);
    const agent = new LlmAgent({ name: 'a', model, toolsets: [filterToolset(toolset(['read', 'write']), allowedTools(['read']))] });
    const { events } = await runOnce(agent);
    expect(model.requests[0]!.config.tools).toEqual([
      { functionDeclarations: [{ name: 'read', description: 'the read tool', parametersJsonSchema: { type: 'object' } }] },
    ]);
    expect(events[1]!.content!.parts![0]!.functionResponse!.response!.error).toMatch(/^tool 'write' not found\.\nAvailable tools: read\n/);
  });

  it('PK-5: an error of the inner toolset passes through unchanged; the flow names the toolset and leaves it out (#23 point 9)', async () => {
    const failure = new Error('connection refused');
    const failing = toolset([], { tools: async () => Promise.reject(failure) });
    await expect(filterToolset(failing, () => true).tools(ctx)).rejects.toBe(failure);
    const model = new ScriptedModel([textResponse('answered without it')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, toolsets: [filterToolset(failing, () => true)] }));
    expect(events.map((e) => e.errorMessage)).toEqual(['Toolset "github" is left out: it failed to list its tools: connection refused', undefined]);
    expect(model.requests).toHaveLength(1);
  });

  it('PK-5: a failing predicate is reported with the toolset and the tool', async () => {
    const filtered = filterToolset(toolset(['a', 'b']), (_ctx, tool) => {
      if (tool.name === 'b') throw new Error('policy lookup failed');
      return true;
    });
    await expect(filtered.tools(ctx)).rejects.toThrow('toolset "github": the tool filter failed for tool "b": policy lookup failed');
  });

  it('PK-5: a missing toolset or predicate is a ConfigError at construction', () => {
    expect(() => filterToolset(undefined as unknown as Toolset, () => true)).toThrow(ConfigError);
    expect(() => filterToolset(undefined as unknown as Toolset, () => true)).toThrow(
      'filterToolset: expected a toolset ({name, tools(ctx)}), got undefined; pass the toolset to wrap.',
    );
    expect(() => filterToolset(rawTool('x') as unknown as Toolset, () => true)).toThrow(
      'filterToolset: expected a toolset ({name, tools(ctx)}), got object; pass the toolset to wrap.',
    );
    expect(() => filterToolset(toolset([]), undefined as never)).toThrow(
      "filterToolset(\"github\"): predicate must be a function (ctx, tool) => boolean, or allowedTools(['name', ...]); got undefined.",
    );
    expect(() => allowedTools('search' as never)).toThrow(
      "allowedTools: expected an array of tool names such as ['search', 'fetch_page'], got string.",
    );
    expect(() => allowedTools(['search', 3] as never)).toThrow(
      "allowedTools: expected an array of tool names such as ['search', 'fetch_page'], got an array with a non-string entry.",
    );
  });

  it('FL-4: the inner toolset\'s processRequest and close are delegated; a toolset without them gets neither', async () => {
    const calls: string[] = [];
    const inner = toolset(['a'], {
      processRequest: async (_ctx: ToolContext, request: LlmRequest) => {
        calls.push('processRequest');
        request.config.temperature = 0;
      },
      close: async () => {
        calls.push('close');
      },
    });
    const filtered = filterToolset(inner, () => true);
    expect(isRequestProcessor(filtered)).toBe(true);
    const request = createLlmRequest();
    await (filtered as Toolset & { processRequest(c: ToolContext, r: LlmRequest): Promise<void> }).processRequest(ctx, request);
    await filtered.close!();
    expect(calls).toEqual(['processRequest', 'close']);
    expect(request.config.temperature).toBe(0);
    expect(isRequestProcessor(filterToolset(toolset(['a']), () => true))).toBe(false);
    expect(filterToolset(toolset(['a']), () => true).close).toBeUndefined();
  });
});

class GitHub extends BaseToolset {
  closed = false;
  protected async listTools(): Promise<Tool[]> {
    return ['search', 'get_issue', 'create_issue'].map((name) => rawTool(name));
  }
  override async close(): Promise<void> {
    this.closed = true;
  }
}

describe('BaseToolset', () => {
  it('tools() applies toolFilter (names or a predicate), then the prefix', async () => {
    expect(names(await new GitHub({ name: 'github' }).tools(ctx))).toEqual(['search', 'get_issue', 'create_issue']);
    expect(names(await new GitHub({ name: 'github', toolFilter: ['create_issue', 'search'] }).tools(ctx))).toEqual([
      'search',
      'create_issue',
    ]);
    const readOnly = new GitHub({ name: 'github', toolFilter: (_c, tool) => !tool.name.startsWith('create'), prefix: 'gh' });
    const tools = await readOnly.tools(ctx);
    expect(names(tools)).toEqual(['gh_search', 'gh_get_issue']);
    expect((tools[0] as RunnableTool).declaration()).toEqual({
      name: 'gh_search',
      description: 'the search tool',
      parametersJsonSchema: { type: 'object' },
    });
  });

  it('the runner closes it', async () => {
    const github = new GitHub({ name: 'github' });
    const { runner } = await runOnce(new LlmAgent({ name: 'a', model: new ScriptedModel([textResponse('hi')]), toolsets: [github] }));
    await runner.close();
    expect(github.closed).toBe(true);
  });

  it('checks its options at construction', () => {
    expect(() => new GitHub({ name: '' })).toThrow('GitHub: name must be a non-empty string such as "github"; it names the toolset in errors.');
    expect(() => new GitHub({ name: 'github', toolFilter: 'search' as never })).toThrow(
      'GitHub "github": toolFilter must be a predicate (ctx, tool) => boolean or an array of tool names, got string.',
    );
    expect(() => new GitHub({ name: 'github', toolFilter: [1] as never })).toThrow(ConfigError);
    expect(() => new GitHub({ name: 'github', prefix: 'git hub' })).toThrow(
      'GitHub "github": prefix must match /^[a-zA-Z_][a-zA-Z0-9_.-]{0,62}$/ (a letter or underscore, then letters, digits, "_", "." or "-"), got "git hub"; tools are renamed "<prefix>_<name>", e.g. "github_search".',
    );
  });
});

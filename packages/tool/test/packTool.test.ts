// PK-1: packTool registers a tool in the request's dispatch table and advertises its declaration.
import { createLlmRequest, type FunctionDeclaration, type RunnableTool } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { packTool } from '../src/index.js';

function tool(name: string, advertised = true): RunnableTool {
  const declaration: FunctionDeclaration | undefined = advertised ? { name, description: `${name} tool` } : undefined;
  return { name, description: `${name} tool`, declaration: () => declaration, run: async () => ({}) };
}

describe('packTool', () => {
  it('PK-1: registers the tool and collects declarations into one functionDeclarations entry', () => {
    const request = createLlmRequest();
    const a = tool('a');
    const b = tool('b');
    packTool(request, a);
    packTool(request, b);
    expect(request.tools).toEqual({ a, b });
    expect(request.config.tools).toEqual([{ functionDeclarations: [{ name: 'a', description: 'a tool' }, { name: 'b', description: 'b tool' }] }]);
  });

  it('PK-1: refuses a duplicate name with a message naming the fix, and leaves the request unchanged', () => {
    const request = createLlmRequest();
    const first = tool('search');
    packTool(request, first);
    const before = structuredClone(request.config);
    expect(() => packTool(request, tool('search'))).toThrow(
      'duplicate tool: "search". Two tools or toolsets of the agent expose this name; rename one, or give a toolset a prefix.',
    );
    expect(request.tools.search).toBe(first);
    expect(request.config).toEqual(before);
  });

  it('PK-1/PK-2: merges into the first entry that has functionDeclarations, even when a native tool comes first', () => {
    const request = createLlmRequest({
      config: { tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'existing' }] }, { functionDeclarations: [] }] },
    });
    packTool(request, tool('mine'));
    expect(request.config.tools).toEqual([
      { googleSearch: {} },
      { functionDeclarations: [{ name: 'existing' }, { name: 'mine', description: 'mine tool' }] },
      { functionDeclarations: [] },
    ]);
  });

  it('PK-1: appends a new functionDeclarations entry after native tools when there is none', () => {
    const request = createLlmRequest({ config: { tools: [{ codeExecution: {} }] } });
    packTool(request, tool('mine'));
    expect(request.config.tools).toEqual([{ codeExecution: {} }, { functionDeclarations: [{ name: 'mine', description: 'mine tool' }] }]);
  });

  it('PK-1: a tool without a declaration is callable but not advertised', () => {
    const request = createLlmRequest();
    const hidden = tool('hidden', false);
    packTool(request, hidden);
    expect(request.tools.hidden).toBe(hidden);
    expect(request.config.tools).toBeUndefined();
  });

  it('TC-9: the dispatch table is never serialized with the request', () => {
    const request = createLlmRequest();
    packTool(request, tool('a'));
    expect(JSON.parse(JSON.stringify(request))).toEqual({ contents: [], config: { tools: [{ functionDeclarations: [{ name: 'a', description: 'a tool' }] }] } });
  });
});

import { createLlmRequest, isAdkitError, type LlmRequest } from '@adkit/flow';
import { createToolContext } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import {
  codeExecution,
  enterpriseWebSearch,
  geminiTool,
  googleMaps,
  googleSearch,
  isGeminiModel,
  urlContext,
  vertexAiSearch,
  vertexRagRetrieval,
  type GeminiNativeTool,
} from '../src/index.js';

async function apply(tool: GeminiNativeTool, request: LlmRequest): Promise<LlmRequest> {
  await tool.processRequest(createToolContext(), request);
  return request;
}
const onModel = (model: string, init: Partial<LlmRequest> = {}) => createLlmRequest({ model, ...init });

describe('BT-10/BT-11: native tools append to config.tools and nothing else', () => {
  it.each([
    [googleSearch, 'google_search', 'Performs a Google search to retrieve information from the web.', { googleSearch: {} }],
    [codeExecution, 'code_execution', 'Writes and runs Python code on Google servers to compute answers.', { codeExecution: {} }],
    [urlContext, 'url_context', 'Reads the content of URLs given in the conversation.', { urlContext: {} }],
    [googleMaps, 'google_maps', 'Grounds answers in Google Maps data about places.', { googleMaps: {} }],
    [enterpriseWebSearch, 'enterprise_web_search', 'Searches the web with enterprise-grade compliance controls.', { enterpriseWebSearch: {} }],
  ] as const)('%# %s', async (tool, name, description, entry) => {
    expect(tool.name).toBe(name);
    expect(tool.description).toBe(description);
    const request = await apply(tool, onModel('gemini-2.5-flash', { config: { tools: [{ functionDeclarations: [{ name: 'f' }] }] } }));
    expect(request.config.tools).toEqual([{ functionDeclarations: [{ name: 'f' }] }, entry]);
    // Not registered for dispatch, never declared, nothing to run locally (BT-13).
    expect(request.tools).toEqual({});
    expect('run' in tool || 'declaration' in tool).toBe(false);
  });

  it('appends a fresh entry on every step, without duplicate checks (BT-10)', async () => {
    const request = onModel('gemini-2.5-flash');
    await apply(googleSearch, request);
    await apply(googleSearch, request);
    expect(request.config.tools).toEqual([{ googleSearch: {} }, { googleSearch: {} }]);
    request.config.tools![0]!.googleSearch!.changed = true;
    expect(googleSearch.nativeTool).toEqual({ googleSearch: {} });
  });

  it('geminiTool wraps any native entry', async () => {
    const mcp = geminiTool('weather_mcp', 'Weather via a server-side MCP server.', {
      mcpServers: [{ name: 'weather', streamableHttpTransport: { url: 'https://example.com/mcp' } }],
    });
    const request = await apply(mcp, onModel('gemini-2.5-flash'));
    expect(request.config.tools).toEqual([{ mcpServers: [{ name: 'weather', streamableHttpTransport: { url: 'https://example.com/mcp' } }] }]);
  });

  it('recognises Gemini models with resource prefixes', () => {
    expect(isGeminiModel('gemini-2.5-flash')).toBe(true);
    expect(isGeminiModel('models/gemini-2.0-flash')).toBe(true);
    expect(isGeminiModel('projects/p/locations/l/publishers/google/models/gemini-3-pro-preview')).toBe(true);
    expect(isGeminiModel('gpt-4o')).toBe(false);
    expect(isGeminiModel(undefined)).toBe(false);
  });
});

describe('models that cannot take native tools', () => {
  it.each([[googleSearch], [codeExecution], [urlContext], [vertexAiSearch({ datastore: 'projects/p/locations/l/collections/c/dataStores/d' })]])(
    'bad input: %# on gpt-4o throws naming the tool and the remedy, and leaves the request alone',
    async (tool) => {
      const request = onModel('gpt-4o');
      const error = await apply(tool, request).catch((e: unknown) => e);
      expect(isAdkitError(error)).toBe(true);
      expect((error as Error).message).toBe(
        `Tool "${tool.name}" is a Gemini-native tool and cannot run on model "gpt-4o": only Gemini models take it. Run it in an agent on a Gemini model and give that agent to this one as an agent-tool, or remove it from this agent.`,
      );
      expect(request.config.tools).toBeUndefined();
    },
  );

  it('bad input: a request without a model name is refused too', async () => {
    await expect(apply(googleSearch, createLlmRequest())).rejects.toThrow('cannot run on a request without a model name');
  });
});

describe('Gemini 1.x rules', () => {
  it('google_search becomes googleSearchRetrieval on Gemini 1.x', async () => {
    const request = await apply(googleSearch, onModel('gemini-1.5-pro'));
    expect(request.config.tools).toEqual([{ googleSearchRetrieval: {} }]);
  });

  it('bad input: on Gemini 1.x google_search must be the only tool', async () => {
    const request = onModel('gemini-1.5-flash', { config: { tools: [{ codeExecution: {} }] } });
    await expect(apply(googleSearch, request)).rejects.toThrow(
      'Tool "google_search" on Gemini 1.x model "gemini-1.5-flash" becomes googleSearchRetrieval, which must be the only tool of the request; move the other tools to another agent or use a Gemini 2 model.',
    );
    expect(request.config.tools).toEqual([{ codeExecution: {} }]);
  });

  it.each([[urlContext], [googleMaps], [enterpriseWebSearch]])('bad input: %# needs Gemini 2 or later', async (tool) => {
    await expect(apply(tool, onModel('gemini-1.0-pro'))).rejects.toThrow(
      `Tool "${tool.name}" needs Gemini 2 or later; model "gemini-1.0-pro" cannot use it. Use a newer Gemini model or remove the tool.`,
    );
  });

  it('bad input: vertex_ai_search is alone on Gemini 1.x, fine with others on Gemini 2', async () => {
    const tool = vertexAiSearch({ engine: 'projects/p/locations/l/collections/c/engines/e', dataStoreSpecs: [{ dataStore: 'd1' }], maxResults: 5 });
    await expect(apply(tool, onModel('gemini-1.5-pro', { config: { tools: [{ googleSearch: {} }] } }))).rejects.toThrow(
      'Tool "vertex_ai_search" cannot be used with other tools on Gemini 1.x model "gemini-1.5-pro"',
    );
    const request = await apply(tool, onModel('gemini-2.5-pro', { config: { tools: [{ googleSearch: {} }] } }));
    expect(request.config.tools).toEqual([
      { googleSearch: {} },
      { retrieval: { vertexAiSearch: { engine: 'projects/p/locations/l/collections/c/engines/e', dataStoreSpecs: [{ dataStore: 'd1' }], maxResults: 5 } } },
    ]);
  });
});

describe('construction (bad input throws ConfigError naming the fix)', () => {
  it('geminiTool checks its name and entry', () => {
    expect(() => geminiTool('', 'd', { googleSearch: {} })).toThrow('geminiTool: name must be a non-empty string');
    expect(() => geminiTool('search', 'd', {})).toThrow(
      'geminiTool "search": the native tool must be a genai Tool object such as {googleSearch: {}}, got {}.',
    );
    expect(() => geminiTool('search', 'd', null as never)).toThrow('got null');
    expect(() => geminiTool('fns', 'd', { functionDeclarations: [] })).toThrow(
      'geminiTool "fns": function declarations are not a native tool; use a function tool (e.g. functionTool from @adkit/function-tool) for them.',
    );
    expect(() => geminiTool('x', 3 as never, { googleSearch: {} })).toThrow('geminiTool "x": description must be a string, got number.');
  });

  it('bad input: geminiTool refuses an entry that is not JSON data (a function, a BigInt, NaN, a cycle, 10,000 levels), naming where', () => {
    const refused = (entry: unknown) => {
      try {
        geminiTool('x', 'd', entry as never);
      } catch (error) {
        return isAdkitError(error) ? `${error.code}: ${error.message}` : `not an adkit error: ${String(error)}`;
      }
      return 'accepted';
    };
    const cycle: Record<string, unknown> = { googleSearch: {} };
    (cycle.googleSearch as Record<string, unknown>).self = cycle;
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const fix = 'pass plain JSON data such as {googleSearch: {}}.';
    expect([
      refused({ googleSearch: { filter() {} } }),
      refused({ googleSearch: { n: 10n } }),
      refused({ retrieval: { limits: [1, Number.NaN] } }),
      refused(cycle),
      refused({ googleSearch: deep }),
      refused({ googleSearch: { since: new Date(0) } }),
    ]).toEqual([
      `INVALID_CONFIG: geminiTool "x": googleSearch.filter is a function; ${fix}`,
      `INVALID_CONFIG: geminiTool "x": googleSearch.n is a bigint; ${fix}`,
      `INVALID_CONFIG: geminiTool "x": retrieval.limits[1] is NaN; ${fix}`,
      `INVALID_CONFIG: geminiTool "x": googleSearch.self refers back to itself; ${fix}`,
      `INVALID_CONFIG: geminiTool "x": googleSearch${'.d'.repeat(63)} nests deeper than 64 levels; ${fix}`,
      `INVALID_CONFIG: geminiTool "x": googleSearch.since is a Date, not plain data; ${fix}`,
    ]);
    // Undefined fields are left out, as JSON leaves them; the entry is a copy.
    const entry = { googleSearch: { timeRangeFilter: undefined } };
    expect(geminiTool('x', 'd', entry).nativeTool).toEqual({ googleSearch: {} });
  });

  it('vertexAiSearch needs exactly one of datastore or engine', () => {
    expect(() => vertexAiSearch({})).toThrow('vertexAiSearch: pass exactly one of {datastore} or {engine} (full resource names).');
    expect(() => vertexAiSearch({ datastore: 'a', engine: 'b' })).toThrow('pass exactly one of {datastore} or {engine}');
    expect(() => vertexAiSearch({ datastore: 'a', dataStoreSpecs: [] })).toThrow('vertexAiSearch: dataStoreSpecs needs {engine}');
    expect(() => vertexAiSearch({ datastore: 'a', maxResults: 0 })).toThrow('vertexAiSearch: maxResults must be a positive integer, got 0.');
  });

  it('vertexRagRetrieval needs a corpus, and appends a vertexRagStore retrieval', async () => {
    expect(() => vertexRagRetrieval({})).toThrow(
      'vertexRagRetrieval "vertex_rag_retrieval": pass {ragCorpora: [...]} or {ragResources: [...]} naming at least one corpus.',
    );
    expect(() => vertexRagRetrieval({ ragCorpora: ['c'], similarityTopK: 1.5 })).toThrow('similarityTopK must be a positive integer, got 1.5.');
    const tool = vertexRagRetrieval({ name: 'docs', ragCorpora: ['projects/p/locations/l/ragCorpora/c'], similarityTopK: 3 });
    expect(tool.name).toBe('docs');
    const request = await apply(tool, onModel('gemini-2.5-flash'));
    expect(request.config.tools).toEqual([{ retrieval: { vertexRagStore: { ragCorpora: ['projects/p/locations/l/ragCorpora/c'], similarityTopK: 3 } } }]);
  });
});

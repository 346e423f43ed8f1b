// #26: the OpenAI adapter's schema pass (openaiSchema, then compileStrictSchema with `strict`):
// what OpenAI would refuse becomes what it accepts, the tool keeps its own schema, every rewrite is
// reported. Tried on the real MCP servers' schemas, zod 4 / valibot / arktype output for the same
// tool and all GitHub REST operations (the corpus of the Gemini tests), each request checked
// against OpenAI's documented rules (support/openaiSubset.ts): strict when it compiles, plain
// function calling otherwise.
import { createLlmRequest, createUserContent, SchemaCheck, type GenerateContentConfig, type JsonSchema } from '@adkit/flow';
import { startReplayServer } from '@adkit/replay-server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaReport } from '../src/index.js';
import { SchemaCache } from '../src/schemaCache.js';
import { compileStrictSchema, openaiSchema, removeStrictNulls } from '../src/strictSchema.js';
import { toolSpecs } from '../src/toolSpecs.js';
import { githubOperationSchemas, libraryOutputSchemas, mcpSchemas, type CorpusSchema } from '../../model-gemini/test/support/schemaCorpus.js';
import { collect, openaiAt, sentBodies } from './helpers.js';
import { openaiProblems, openaiStrictProblems } from './support/openaiSubset.js';

function sendAll(corpus: CorpusSchema[], strict: boolean): { refused: string[]; strictCount: number } {
  const refused: string[] = [];
  let strictCount = 0;
  const schemas = new SchemaCache();
  for (const { source, schema } of corpus) {
    const before = JSON.stringify(schema);
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: [{ name: 'tool', parametersJsonSchema: schema }] }] };
    const [tool] = toolSpecs(config, 'gpt-4.1', strict, schemas).tools;
    expect(JSON.stringify(schema), `${source} was changed in place`).toBe(before);
    const problems = tool!.strict ? openaiStrictProblems(tool!.parameters) : openaiProblems(tool!.parameters);
    if (tool!.strict) strictCount++;
    for (const problem of problems) refused.push(`${source} (${tool!.strict ? 'strict' : 'plain'}) ${problem}`);
  }
  return { refused, strictCount };
}

/** Object roots only: OpenAI takes nothing else as parameters (an MCP output schema may be anything). */
const objectRoots = (corpus: CorpusSchema[]) => corpus.filter(({ schema }) => schema.type === 'object');

describe('#26 OpenAI requests for real schemas follow OpenAI\'s documented rules', () => {
  for (const strict of [false, true]) {
    it(`the real MCP servers' tools (strict: ${strict})`, () => {
      const { refused, strictCount } = sendAll(objectRoots(mcpSchemas()), strict);
      expect(refused).toEqual([]);
      if (strict) expect(strictCount).toBeGreaterThan(20);
    });

    it(`zod, valibot and arktype output for the same tool (strict: ${strict})`, () => {
      expect(sendAll(libraryOutputSchemas(), strict).refused).toEqual([]);
    });

    it(`every GitHub REST operation (strict: ${strict})`, () => {
      const corpus = githubOperationSchemas();
      const { refused, strictCount } = sendAll(corpus, strict);
      expect(refused).toEqual([]);
      // Most go strict; the rest (maps, free-form objects, …) go as plain function calling.
      if (strict) expect(strictCount).toBeGreaterThan(corpus.length / 2);
    });
  }
});

describe('#26 openaiSchema and the strict extension', () => {
  it('an array without items gets items: {}; a tuple becomes prefixItems; each change reported; the input is kept', () => {
    const schema: JsonSchema = { type: 'object', properties: { list: { type: 'array' }, pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } };
    const before = JSON.stringify(schema);
    expect(openaiSchema(schema)).toEqual({
      schema: {
        type: 'object',
        properties: {
          list: { type: 'array', items: {} },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
        },
      },
      changes: [
        { path: '/properties/list', keyword: 'items', message: 'an array schema without "items" sent with "items": {} (any item)' },
        { path: '/properties/pair', keyword: 'items', message: 'tuple "items" (an array of schemas) sent as "prefixItems", with "items" allowing any of them' },
      ],
    });
    expect(JSON.stringify(schema)).toBe(before);
    expect(schemaReport({ type: 'object', properties: { list: { type: 'array' } } }).openai).toEqual([
      { path: '/properties/list', keyword: 'items', effect: 'changed', message: 'an array schema without "items" is rejected by OpenAI; the adapter sends "items": {}' },
    ]);
  });

  it('strict: an allOf of plain objects is merged; zod\'s recursive $ref "#" compiles, and its nulls are removed again', () => {
    const merged = compileStrictSchema({ allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'number' } } }] });
    expect(merged.ok).toBe(true);
    if (!merged.ok) return;
    expect(merged.schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: ['number', 'null'] } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(merged.changes[0]).toEqual({ path: '', keyword: 'allOf', message: '"allOf" merged into one schema' });

    const Node = z.object({ name: z.string(), get child() { return Node.optional(); } });
    const json = Node['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    delete json.$schema;
    const compiled = compileStrictSchema(json);
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(openaiStrictProblems(compiled.schema)).toEqual([]);
    expect(removeStrictNulls({ name: 'a', child: { name: 'b', child: { name: 'c', child: null } } }, compiled.plan, compiled.defs)).toEqual({
      name: 'a',
      child: { name: 'b', child: { name: 'c' } },
    });
  });

  it('strict: past OpenAI\'s limits (10 levels, 5000 properties, 1000 enum values) a tool is sent plain, saying why', () => {
    let deep: JsonSchema = { type: 'string' };
    for (let i = 0; i < 11; i++) deep = { type: 'object', properties: { x: deep }, required: ['x'] };
    const tooDeep = compileStrictSchema(deep);
    expect(tooDeep.ok).toBe(false);
    if (!tooDeep.ok) expect(tooDeep.problems[0]!.message).toBe('objects nest 11 levels deep; strict mode allows 10');
    const wide = compileStrictSchema({ type: 'object', properties: Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: 'string' }])) });
    expect(wide.ok).toBe(false);
    const enums = compileStrictSchema({ type: 'object', properties: { e: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } } });
    expect(enums.ok).toBe(false);
  });

  it('the request mapping uses the pass: a zod tool\'s schema reaches OpenAI without $schema, strict', () => {
    const schema = z.object({ city: z.string().min(1), tags: z.array(z.string()).optional() })['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    delete schema.$schema;
    const request = createLlmRequest({ config: { tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: schema }] }] } });
    const [tool] = toolSpecs(request.config, 'gpt-4.1', true, new SchemaCache()).tools;
    expect(tool!.strict).toBe(true);
    expect(openaiStrictProblems(tool!.parameters)).toEqual([]);
  });
});

describe('#26 through the real openai SDK', () => {
  it('a zod tool, a real MCP tool and a GitHub operation reach OpenAI in forms it documents (strict where possible)', async () => {
    const server = await startReplayServer({ script: ['openai-chat--tool-call.1.json'] });
    try {
      const zodTool = new SchemaCheck(z.object({ city: z.string().min(1), when: z.iso.datetime().optional(), tags: z.array(z.string()).optional() }), { label: 'zod' });
      const mcp = mcpSchemas().find((entry) => entry.source === 'mcp:filesystem/edit_file#input')!.schema;
      const operations = githubOperationSchemas();
      const github = operations.find((entry) => entry.source === 'github:POST /repos/{owner}/{repo}/issues')!.schema;
      // One that strict mode cannot express (a map, a free-form object, …): it goes plain.
      const plain = operations.find((entry) => !compileStrictSchema(openaiSchema(entry.schema).schema).ok)!.schema;
      const declarations = [
        { name: 'get_user_country', description: '', parametersJsonSchema: zodTool.jsonSchema },
        { name: 'edit_file', description: 'Edits a file.', parametersJsonSchema: mcp },
        { name: 'create_issue', description: 'Creates an issue.', parametersJsonSchema: github },
        { name: 'github_plain', description: 'A GitHub operation.', parametersJsonSchema: plain },
      ];
      const request = createLlmRequest({ contents: [createUserContent('go')], config: { tools: [{ functionDeclarations: declarations }] } });
      await collect(openaiAt(server, 'gpt-4o', { strict: true }), request, false);
      const tools = (sentBodies(server)[0]!.tools as { function: { name: string; parameters: JsonSchema; strict?: boolean } }[]).map((t) => t.function);
      expect(tools.map((t) => [t.name, t.strict === true])).toEqual([['get_user_country', true], ['edit_file', true], ['create_issue', true], ['github_plain', false]]);
      for (const tool of tools) expect(tool.strict ? openaiStrictProblems(tool.parameters) : openaiProblems(tool.parameters), tool.name).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

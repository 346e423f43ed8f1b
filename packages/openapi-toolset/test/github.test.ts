// GitHub's real OpenAPI description (@octokit/openapi, ~1,000 operations) loaded whole: every
// operation is a tool with a unique valid name, and every declaration passes both adapters'
// schema handling (OpenAI: model-openai's schemaReport, strict compilation included; Gemini:
// model-gemini's geminiSchema pass, whose output must then sit inside the documented subset, by
// schemaReport and the structural checks below).
import { createRequire } from 'node:module';
import { FUNCTION_NAME_PATTERN } from '@adkit/tool';
import { geminiSchema } from '@adkit/model-gemini';
import { schemaReport } from '@adkit/model-openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiToolset, type OpenApiTool } from '../src/index.js';
import { listingContext } from './support/run.js';

const specPath = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
type Node = Record<string, unknown>;

/** Gemini's `parametersJsonSchema` subset, structurally: what it refuses outright. */
function geminiProblems(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Node;
  const problems: string[] = [];
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  for (const type of types)
    if (!['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'].includes(type as string)) problems.push(`${path}: type ${String(type)}`);
  if (types.includes('array') && (node.items === undefined || Array.isArray(node.items))) problems.push(`${path}: array without a single items schema`);
  if (Array.isArray(node.required)) {
    const properties = (node.properties ?? {}) as Node;
    for (const name of node.required) if (!Object.hasOwn(properties, name as string)) problems.push(`${path}: required "${String(name)}" is not a property`);
  }
  if (typeof node.$ref === 'string') problems.push(`${path}: $ref left in the schema`);
  for (const key of ['properties', 'patternProperties'])
    if (typeof node[key] === 'object' && node[key] !== null) for (const [name, child] of Object.entries(node[key] as Node)) problems.push(...geminiProblems(child, `${path}/${key}/${name}`));
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, i) => problems.push(...geminiProblems(child, `${path}/${key}/${i}`)));
  for (const key of ['items', 'additionalProperties', 'not']) if (typeof node[key] === 'object') problems.push(...geminiProblems(node[key], `${path}/${key}`));
  return problems;
}

describe("GitHub's OpenAPI description", { timeout: 120_000 }, () => {
  let tools: OpenApiTool[];
  let warnings: string[];
  beforeAll(async () => {
    const ctx = listingContext();
    tools = (await openApiToolset({ spec: specPath }).tools(ctx)) as OpenApiTool[];
    warnings = ctx.warnings;
  }, 120_000);

  it('every operation becomes a tool with a unique, valid function name', () => {
    expect(tools.length).toBeGreaterThan(900);
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(FUNCTION_NAME_PATTERN);
    const ops = new Set(tools.map((tool) => `${tool.operation.method} ${tool.operation.path}`));
    expect(ops.size).toBe(tools.length);
    expect(tools.find((tool) => tool.operation.operationId === 'repos/get')!.name).toBe('repos_get');
    // One summary line, not a thousand: GitHub's ids have "/" in them.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^openApiToolset "openapi": \d+ operation names were made valid function names, e\.g\. renamed "meta\/root" to "meta_root"/);
  });

  it('every declaration is JSON, has an object schema and a description of at most 1,000 characters', () => {
    for (const tool of tools) {
      const declaration = tool.declaration();
      expect(JSON.parse(JSON.stringify(declaration))).toEqual(declaration);
      expect(declaration.parametersJsonSchema!.type).toBe('object');
      expect(declaration.description!.length).toBeGreaterThan(0);
      expect(declaration.description!.length).toBeLessThanOrEqual(1_000);
    }
  });

  it("every declaration passes OpenAI's schema handling (nothing rejected; strict form where it can be)", () => {
    let strict = 0;
    const rejected: string[] = [];
    for (const tool of tools) {
      const report = schemaReport(tool.declaration().parametersJsonSchema!);
      for (const finding of report.openai) if (finding.effect === 'rejected') rejected.push(`${tool.name}${finding.path}: ${finding.message}`);
      if (!report['openai-strict'].some((finding) => finding.effect === 'rejected')) strict++;
    }
    expect(rejected).toEqual([]);
    // Strict mode cannot express some schemas (allOf, …); the adapter sends those non-strict.
    expect(strict / tools.length).toBeGreaterThan(0.9);
  });

  it("every declaration passes Gemini's schema handling: as declared nothing is rejected, and after the adapter's geminiSchema pass every keyword is in the subset", () => {
    const rejected: string[] = [];
    const outside: string[] = [];
    for (const tool of tools) {
      const declared = tool.declaration().parametersJsonSchema!;
      for (const finding of schemaReport(declared).gemini) if (finding.effect === 'rejected') rejected.push(`${tool.name}${finding.path}: ${finding.message}`);
      for (const problem of geminiProblems(declared)) rejected.push(`${tool.name}${problem}`);
      const sent = geminiSchema(declared).schema;
      for (const finding of schemaReport(sent).gemini) outside.push(`${tool.name}${finding.path}: ${finding.effect} ${finding.message}`);
      for (const problem of geminiProblems(sent)) outside.push(`${tool.name}${problem}`);
      expect(sent.type).toBe('object');
    }
    expect(rejected).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('a few well-known operations have the parameters GitHub documents', () => {
    const get = (id: string) => tools.find((tool) => tool.operation.operationId === id)!.declaration().parametersJsonSchema!;
    expect(get('repos/get').required).toEqual(['owner', 'repo']);
    const create = get('issues/create') as { required: string[]; properties: { body: { required: string[] } } };
    expect(create.required).toEqual(['owner', 'repo', 'body']);
    expect(create.properties.body.required).toEqual(['title']);
    expect(Object.keys((get('issues/list-for-repo') as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['owner', 'repo', 'milestone', 'state', 'assignee', 'labels', 'per_page', 'page']),
    );
  });
});

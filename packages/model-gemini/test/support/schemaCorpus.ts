// A broad corpus of real tool schemas for the adapters' schema passes (#26), shared by the Gemini
// and OpenAI tests: the tools of the three real MCP servers (recorded over stdio by
// ../fixtures/recordMcpSchemas.mjs), one tool written in zod 4, valibot and arktype (their own
// JSON Schema output), and every operation of GitHub's OpenAPI description (@octokit/openapi) as
// the parameters schema an OpenAPI toolset declares: path, query and header parameters plus the
// JSON body, with the components it references as $defs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonSchema } from '@adkit/flow';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';

export interface CorpusSchema {
  /** Where it comes from: `mcp:filesystem/edit_file#input`, `zod:plan_trip`, `github:POST /repos/{owner}/{repo}/issues`. */
  source: string;
  schema: JsonSchema;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The inputSchema and outputSchema of every tool of server-everything, -filesystem and -memory. */
export function mcpSchemas(): CorpusSchema[] {
  const recorded = JSON.parse(readFileSync(join(here, '../fixtures/mcpToolSchemas.json'), 'utf8')) as Record<
    string,
    { tools: { name: string; inputSchema: JsonSchema; outputSchema?: JsonSchema }[] }
  >;
  return Object.entries(recorded).flatMap(([server, { tools }]) =>
    tools.flatMap((tool) => [
      { source: `mcp:${server}/${tool.name}#input`, schema: tool.inputSchema },
      ...(tool.outputSchema ? [{ source: `mcp:${server}/${tool.name}#output`, schema: tool.outputSchema }] : []),
    ]),
  );
}

const Stop = z.object({ city: z.string().min(1), nights: z.number().int().positive() });
const Leg = z.object({ from: z.string(), to: z.string(), get next() { return Leg.optional(); } });

/** One trip-planning tool, the same in each library: nullable, optional, unions, enums, records, tuples, formats, recursion, defaults. */
export const tripTool = {
  zod: z.object({
    traveller: z.email(),
    start: z.iso.date(),
    budget: z.number().min(0).nullable(),
    currency: z.enum(['EUR', 'USD']).default('EUR'),
    mode: z.union([z.literal('train'), z.literal('plane'), z.object({ car: z.string() })]),
    stops: z.array(Stop).min(1).max(10),
    tags: z.record(z.string(), z.string()).optional(),
    window: z.tuple([z.string(), z.string()]).optional(),
    site: z.url().optional(),
    route: Leg.optional(),
  }),
  valibot: toStandardJsonSchema(
    v.object({
      traveller: v.pipe(v.string(), v.email()),
      start: v.pipe(v.string(), v.isoDate()),
      budget: v.nullable(v.pipe(v.number(), v.minValue(0))),
      currency: v.optional(v.picklist(['EUR', 'USD']), 'EUR'),
      mode: v.union([v.literal('train'), v.literal('plane'), v.object({ car: v.string() })]),
      stops: v.pipe(v.array(v.object({ city: v.pipe(v.string(), v.minLength(1)), nights: v.pipe(v.number(), v.integer(), v.minValue(1)) })), v.minLength(1), v.maxLength(10)),
      tags: v.optional(v.record(v.string(), v.string())),
      window: v.optional(v.tuple([v.string(), v.string()])),
      site: v.optional(v.pipe(v.string(), v.url())),
    }),
  ),
  arktype: type({
    traveller: 'string.email',
    start: 'string.date.iso',
    budget: 'number >= 0 | null',
    currency: "'EUR' | 'USD' = 'EUR'",
    mode: type("'train' | 'plane'").or({ car: 'string' }),
    stops: type({ city: 'string > 0', nights: 'number.integer > 0' }).array().atLeastLength(1).atMostLength(10),
    'tags?': 'Record<string, string>',
    'window?': ['string', 'string'],
    'site?': 'string.url',
  }),
};

/** `~standard.jsonSchema.input` of the trip tool in each library, as adkit declares it. */
export function libraryOutputSchemas(): CorpusSchema[] {
  return Object.entries(tripTool).map(([library, schema]) => {
    const json = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    delete json.$schema;
    return { source: `${library}:plan_trip`, schema: json };
  });
}

type OpenApi = {
  paths: Record<string, Record<string, { operationId?: string; parameters?: unknown[]; requestBody?: unknown }>>;
  components: { schemas: Record<string, unknown>; parameters: Record<string, unknown>; requestBodies?: Record<string, unknown> };
};

/** Every operation of GitHub's REST API description (api.github.com, @octokit/openapi) as one JSON Schema. */
export function githubOperationSchemas(): CorpusSchema[] {
  const require = createRequire(import.meta.url);
  const path = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated/api.github.com.json');
  const spec = JSON.parse(readFileSync(path, 'utf8')) as OpenApi;
  const local = (ref: string): unknown => ref.slice(2).split('/').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  const deref = (value: unknown): Record<string, unknown> => {
    let node = value as Record<string, unknown>;
    while (node && typeof node.$ref === 'string') node = local(node.$ref) as Record<string, unknown>;
    return node;
  };
  const out: CorpusSchema[] = [];
  for (const [route, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const raw of operation.parameters ?? []) {
        const parameter = deref(raw) as { name: string; in: string; required?: boolean; description?: string; schema?: unknown };
        if (!parameter?.schema) continue;
        properties[parameter.name] = { ...(parameter.description ? { description: parameter.description } : {}), ...(parameter.schema as object) };
        if (parameter.required) required.push(parameter.name);
      }
      const body = deref(operation.requestBody) as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;
      const bodySchema = body?.content?.['application/json']?.schema;
      if (bodySchema) {
        properties.body = bodySchema;
        if (body.required) required.push('body');
      }
      const schema = rewriteRefs({ type: 'object', properties, required }) as JsonSchema;
      const defs = reachableDefs(schema, spec.components.schemas);
      if (Object.keys(defs).length > 0) schema.$defs = defs;
      out.push({ source: `github:${method.toUpperCase()} ${route}`, schema });
    }
  }
  return out;
}

/** `#/components/schemas/X` → `#/$defs/X`, in a copy. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') out.$ref = child.replace('#/components/schemas/', '#/$defs/');
    else Object.defineProperty(out, key, { value: rewriteRefs(child), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function reachableDefs(schema: unknown, components: Record<string, unknown>): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  const pending = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (typeof node === 'object' && node !== null) {
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
        const name = ref.slice('#/$defs/'.length);
        if (!(name in defs) && name in components) {
          defs[name] = rewriteRefs(components[name]);
          pending.push(defs[name]);
        }
      }
      pending.push(...Object.values(node));
    }
  }
  return defs;
}

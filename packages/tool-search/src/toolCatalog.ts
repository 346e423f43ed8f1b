import MiniSearch from 'minisearch';
import { isRunnableTool, isStreamingTool, type FunctionDeclaration, type Tool } from '@adkit/flow';

/** One tool as `search_tools` reports it. */
export interface ToolMatch {
  readonly name: string;
  readonly description: string;
}

interface Entry {
  id: number;
  name: string;
  description: string;
  parameters: string;
}

/** A query longer than this is cut before it reaches the index: a query is a few words, not a document. */
export const MAX_QUERY_CHARS = 1000;

// Words that match nearly every description and so rank nothing ("open an issue" is about issues).
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'i', 'in', 'into', 'is', 'it', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'want', 'with']);

function processTerm(term: string): string | null {
  return STOP_WORDS.has(term) ? null : term;
}

// Splits `list_repo_issues`, `getRepoIssues` and `repos/{owner}` alike into lower-case words.
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The names of a declaration's parameters, nested ones too (`owner`, `repo`, `labels`, …). */
function parameterNames(declaration: FunctionDeclaration | undefined): string {
  const schema = (declaration?.parametersJsonSchema ?? declaration?.parameters) as unknown;
  const names: string[] = [];
  // Bounded walk: two levels of objects say what a tool takes; deeper ones add noise, not recall.
  const walk = (node: unknown, depth: number) => {
    if (typeof node !== 'object' || node === null || depth > 2) return;
    const properties = (node as { properties?: unknown }).properties;
    if (typeof properties !== 'object' || properties === null) return;
    for (const key of Object.keys(properties)) {
      names.push(key);
      walk((properties as Record<string, unknown>)[key], depth + 1);
    }
  };
  walk(schema, 1);
  return names.join(' ');
}

function safeDeclaration(tool: Tool): FunctionDeclaration | undefined {
  try {
    return isRunnableTool(tool) || isStreamingTool(tool) ? tool.declaration() : undefined;
  } catch {
    // A tool whose declaration throws cannot be declared by the flow either; it is simply not found.
    return undefined;
  }
}

/**
 * The searchable catalog of one listing: a MiniSearch full-text index over each tool's name,
 * description and parameter names, built on the first search (a run that never searches pays
 * nothing for it). Ids are positions, so no tool name ever becomes an object key.
 */
export class ToolCatalog {
  private index?: MiniSearch<Entry>;
  private readonly byName = new Map<string, Tool>();

  constructor(readonly tools: readonly Tool[]) {
    for (const tool of tools) if (!this.byName.has(tool.name)) this.byName.set(tool.name, tool);
  }

  /** The tool of that name in this listing, if any. */
  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  /** The best matches for the query, best first, at most `limit`. */
  search(query: string, limit: number): ToolMatch[] {
    const text = query.slice(0, MAX_QUERY_CHARS);
    if (!tokenize(text).some((word) => processTerm(word) !== null)) return [];
    const index = (this.index ??= this.build());
    return index
      .search(text, {
        boost: { name: 3, parameters: 1.5 },
        // Short words as prefixes or with typos match far too much; longer ones are worth the reach.
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
      })
      .slice(0, limit)
      .map((hit) => {
        const tool = this.tools[hit.id as number]!;
        return { name: tool.name, description: tool.description };
      });
  }

  private build(): MiniSearch<Entry> {
    const index = new MiniSearch<Entry>({ fields: ['name', 'description', 'parameters'], tokenize, processTerm });
    const entries: Entry[] = [];
    for (const [id, tool] of this.tools.entries()) {
      const declaration = safeDeclaration(tool);
      if (!declaration) continue;
      entries.push({ id, name: tool.name, description: declaration.description ?? tool.description ?? '', parameters: parameterNames(declaration) });
    }
    index.addAll(entries);
    return index;
  }
}

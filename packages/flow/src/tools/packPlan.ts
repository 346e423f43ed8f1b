import type { FunctionDeclaration } from '../content/content.js';
import { declarationProblem } from '../llmFlow/declarationGuard.js';
import { seedToolTable, type LlmRequest } from '../model/llmRequest.js';
import { isSelfPacking, registerTool } from './packTool.js';
import { isRequestProcessor, isRunnableTool, isStreamingTool, type RunnableTool, type StreamingTool, type Tool } from './tool.js';

/**
 * The head of a step's tool list that the flow packs itself: tools that only pack themselves
 * (`packTool`: no `processRequest`, or one marked by `markSelfPacking`) and whose declarations can
 * be sent, with what each declared this step.
 */
export interface PlainHead {
  readonly tools: readonly (RunnableTool | StreamingTool)[];
  readonly declarations: readonly (FunctionDeclaration | undefined)[];
  /** Their dispatch table (name → tool), when the step before packed the same head; null when names repeat. */
  readonly table: Readonly<Record<string, Tool>> | null | undefined;
}

interface Plan {
  readonly tools: readonly Tool[];
  /** Each tool's name when planned: the table is keyed by them. */
  readonly names: readonly string[];
  table?: Readonly<Record<string, Tool>> | null;
}

// The head each owner (an agent) packed last: an agent's steps usually pack the same tools, so
// their table is built once and copied, not filled key by key.
const plans = new WeakMap<object, Plan>();

/**
 * Scans `tools` for the plain head (calling each `declaration()` once; one that throws or cannot
 * be sent ends the head, so the caller's loop refuses it as usual). When `owner`'s previous step
 * packed exactly this head (the same tools under the same names), the head's table comes with it,
 * built on that second sighting and reused while the head stays the same. The declarations are
 * always this step's.
 */
export function plainHead(owner: object, tools: readonly Tool[]): PlainHead {
  const head: (RunnableTool | StreamingTool)[] = [];
  const declarations: (FunctionDeclaration | undefined)[] = [];
  for (const tool of tools) {
    if (!packsOnlyItself(tool)) break;
    let declaration: FunctionDeclaration | undefined;
    try {
      declaration = tool.declaration();
    } catch {
      break;
    }
    if (declaration !== undefined && declarationProblem(declaration) !== undefined) break;
    head.push(tool);
    declarations.push(declaration);
  }
  const plan = plans.get(owner);
  if (plan && sameHead(plan, head)) {
    if (plan.table === undefined) plan.table = tableOf(head);
    return { tools: head, declarations, table: plan.table };
  }
  plans.set(owner, { tools: head, names: head.map((tool) => tool.name) });
  return { tools: head, declarations, table: undefined };
}

/**
 * Registers the head's tools in the request's dispatch table: a copy of the head's table when
 * there is one and the request's table is still untouched, else one by one (`DUPLICATE_TOOL` for
 * a name taken twice, as `packTool` would).
 */
export function registerHead(request: LlmRequest, head: PlainHead): void {
  if (head.tools.length === 0) return;
  if (head.table && seedToolTable(request, { ...head.table })) return;
  for (const tool of head.tools) registerTool(request, tool);
}

/** Advertises the head's declarations, in order, after those already in the request (PK-1, PK-4). */
export function declareHead(request: LlmRequest, head: PlainHead): void {
  const declared = head.declarations.filter((declaration) => declaration !== undefined);
  if (declared.length === 0) return;
  const entries = (request.config.tools ??= []);
  for (const entry of entries)
    if (entry.functionDeclarations !== undefined) {
      for (const declaration of declared) entry.functionDeclarations.push(declaration);
      return;
    }
  entries.push({ functionDeclarations: declared });
}

/** A tool whose packing is exactly `packTool(request, tool)`. */
function packsOnlyItself(tool: Tool): tool is RunnableTool | StreamingTool {
  if (!isRunnableTool(tool) && !isStreamingTool(tool)) return false;
  return !isRequestProcessor(tool) || isSelfPacking(tool.processRequest);
}

function sameHead(plan: Plan, tools: readonly Tool[]): boolean {
  if (plan.tools.length !== tools.length) return false;
  for (let i = 0; i < tools.length; i++) if (plan.tools[i] !== tools[i] || plan.names[i] !== tools[i]!.name) return false;
  return true;
}

/** The head's dispatch table, or null when two of its tools share a name (each step then refuses it). */
function tableOf(tools: readonly Tool[]): Readonly<Record<string, Tool>> | null {
  // `Object.fromEntries` defines each key as data (`__proto__` too) and, unlike a loop of
  // assignments, gives an object that V8 copies in one go: what each step's `{...table}` needs.
  const table = Object.fromEntries(tools.map((tool) => [tool.name, tool])) as Record<string, Tool>;
  return Object.keys(table).length === tools.length ? table : null;
}

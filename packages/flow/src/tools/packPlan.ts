import type { FunctionDeclaration } from '../content/content.js';
import { declarationProblem } from '../llmFlow/declarationGuard.js';
import { seedToolTable, type LlmRequest } from '../model/llmRequest.js';
import { declarationList, isSelfPacking, registerTool } from './packTool.js';
import { isRequestProcessor, isRunnableTool, isStreamingTool, type RunnableTool, type StreamingTool, type Tool } from './tool.js';

interface Plan {
  readonly tools: readonly Tool[];
  /** Each tool's name when planned: the table is keyed by them. */
  readonly names: readonly string[];
  /** What each tool declared last, each known to be sendable: the same object again needs no check. */
  declarations: readonly (FunctionDeclaration | undefined)[];
  /** Their dispatch table, built on the second step that packs the same head; null when a name repeats. */
  table?: Readonly<Record<string, Tool>> | null;
}

/** What `packHead` packed: `count` tools, whose declarations are `list[from..to)`. */
export interface PackedHead {
  readonly count: number;
  readonly list: readonly FunctionDeclaration[] | undefined;
  readonly from: number;
  readonly to: number;
}

// The head each owner (an agent) packed last: an agent's steps usually pack the same tools, so
// their table is built once and copied, not filled key by key.
const plans = new WeakMap<object, Plan>();

/**
 * Packs the head of a step's tool list that the flow packs itself: the tools that only pack
 * themselves (`packTool`: no `processRequest`, or one marked by `markSelfPacking`) and whose
 * declarations can be sent. Each `declaration()` is called once and its declaration advertised at
 * once; a tool whose `declaration()` throws or cannot be sent ends the head, so the caller's loop
 * refuses it as usual.
 *
 * When `owner`'s step before packed exactly this head (the same tools under the same names), the
 * request's dispatch table starts as a copy of the head's table instead of being filled key by key
 * (#24): each step still has its own table. Otherwise, and when a name repeats, the tools are
 * registered one by one (`DUPLICATE_TOOL` for a name taken twice, as `packTool` would).
 */
export function packHead(owner: object, request: LlmRequest, tools: readonly Tool[]): PackedHead {
  const plan = plans.get(owner);
  let same = plan !== undefined;
  // This step's declarations, made only when they differ from the plan's.
  let declarations: (FunctionDeclaration | undefined)[] | undefined = plan ? undefined : [];
  let list: FunctionDeclaration[] | undefined;
  let from = 0;
  let count = 0;
  for (; count < tools.length; count++) {
    const tool = tools[count]!;
    if (!packsOnlyItself(tool)) break;
    let declaration: FunctionDeclaration | undefined;
    try {
      declaration = tool.declaration();
    } catch {
      break;
    }
    if (!declarations && declaration !== plan!.declarations[count]) declarations = plan!.declarations.slice(0, count);
    if (declarations && declaration !== undefined && declarationProblem(declaration) !== undefined) break;
    declarations?.push(declaration);
    if (declaration !== undefined) {
      if (!list) from = (list = declarationList(request)).length;
      list.push(declaration);
    }
    if (same && (plan!.tools[count] !== tool || plan!.names[count] !== tool.name)) same = false;
  }
  const packed = { count, list, from, to: list ? list.length : 0 };
  if (count === 0) return packed;
  if (same && plan!.tools.length === count) {
    if (declarations) plan!.declarations = declarations;
    if (plan!.table === undefined) plan!.table = tableOf(plan!.tools);
    if (plan!.table && seedToolTable(request, { ...plan!.table })) return packed;
  } else {
    const head = tools.slice(0, count);
    plans.set(owner, { tools: head, names: head.map((tool) => tool.name), declarations: declarations ?? plan!.declarations.slice(0, count) });
  }
  for (let i = 0; i < count; i++) registerTool(request, tools[i]!);
  return packed;
}

/** A tool whose packing is exactly `packTool(request, tool)`. */
function packsOnlyItself(tool: Tool): tool is RunnableTool | StreamingTool {
  if (!isRunnableTool(tool) && !isStreamingTool(tool)) return false;
  return !isRequestProcessor(tool) || isSelfPacking(tool.processRequest);
}

/** The head's dispatch table, or null when two of its tools share a name (each step then refuses it). */
function tableOf(tools: readonly Tool[]): Readonly<Record<string, Tool>> | null {
  // `Object.fromEntries` defines each key as data (`__proto__` too) and gives an object V8 copies
  // in one go, which each step's `{...table}` needs.
  const table = Object.fromEntries(tools.map((tool) => [tool.name, tool])) as Record<string, Tool>;
  return Object.keys(table).length === tools.length ? table : null;
}

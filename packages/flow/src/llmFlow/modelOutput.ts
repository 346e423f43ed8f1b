import type { Awaitable } from '../runner/callbacks.js';
import type { Part } from '../content/content.js';
import type { FunctionResponsePart } from '../content/responseParts.js';
import type { Tool } from '../tools/tool.js';
import type { ToolContext } from '../context/toolContext.js';

/**
 * A tool whose model is sent something other than its result (AI SDK's `toModelOutput`): a
 * redacted copy, a summary, an image instead of raw bytes in JSON. `toModelOutput(result, ctx)`
 * returns the response the model gets (`withResponseParts` adds parts to it); the function
 * response event keeps the tool's own result, which clients see and the session stores.
 */
export interface ModelOutputMapper {
  toModelOutput(result: Record<string, unknown>, ctx: ToolContext): Awaitable<Record<string, unknown>>;
}

/** Whether the tool maps its results for the model. */
export function isModelOutputMapper<T extends Tool>(tool: T): tool is T & ModelOutputMapper {
  return typeof (tool as Partial<ModelOutputMapper>).toModelOutput === 'function';
}

/** What the model is sent for one call, kept with its function response part. */
export interface ModelView {
  response: Record<string, unknown>;
  parts?: FunctionResponsePart[];
}

/**
 * The `partMetadata` key of a function response part that holds the model's view of it. The
 * event keeps the tool's result; requests are built with the view (in any process, from the
 * saved events), and the key itself never reaches a provider.
 */
export const MODEL_VIEW_METADATA = 'adkitModelView';

/** The part as the model gets it: with a model view, its response (and parts) replaced; else the part itself. */
export function modelViewOf(part: Part): Part {
  const metadata = part.partMetadata;
  if (!part.functionResponse || !metadata || !Object.hasOwn(metadata, MODEL_VIEW_METADATA)) return part;
  const { [MODEL_VIEW_METADATA]: view, ...rest } = metadata;
  const { parts: _parts, ...response } = part.functionResponse;
  const shown = view as ModelView;
  const mapped: Part = {
    ...part,
    functionResponse: { ...response, response: shown.response, ...(shown.parts?.length ? { parts: shown.parts } : {}) },
  };
  if (Object.keys(rest).length > 0) mapped.partMetadata = rest;
  else delete mapped.partMetadata;
  return mapped;
}

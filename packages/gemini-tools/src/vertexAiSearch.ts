import { ConfigError } from '@adkit/flow';
import { nativeTool, type GeminiNativeTool } from './geminiTool.js';
import { isGemini1Model } from './geminiModels.js';

/** Options of `vertexAiSearch`: exactly one of `datastore` or `engine`. */
export interface VertexAiSearchOptions {
  /** `projects/{project}/locations/{location}/collections/{collection}/dataStores/{dataStore}` */
  datastore?: string;
  /** `projects/{project}/locations/{location}/collections/{collection}/engines/{engine}` */
  engine?: string;
  /** Data stores to search within the engine (only with `engine`). */
  dataStoreSpecs?: Array<{ dataStore?: string; filter?: string }>;
  filter?: string;
  maxResults?: number;
}

/**
 * Grounding in a Vertex AI Search data store or engine: appends
 * `{retrieval: {vertexAiSearch: {...}}}`. On Gemini 1.x it must be the only tool.
 */
export function vertexAiSearch(options: VertexAiSearchOptions): GeminiNativeTool {
  const { datastore, engine, dataStoreSpecs, filter, maxResults } = options ?? {};
  if (!datastore === !engine) {
    throw new ConfigError('vertexAiSearch: pass exactly one of {datastore} or {engine} (full resource names).');
  }
  if (dataStoreSpecs && !engine) {
    throw new ConfigError('vertexAiSearch: dataStoreSpecs needs {engine}; with a single {datastore}, leave dataStoreSpecs out.');
  }
  if (maxResults !== undefined && !(Number.isInteger(maxResults) && maxResults > 0)) {
    throw new ConfigError(`vertexAiSearch: maxResults must be a positive integer, got ${String(maxResults)}.`);
  }
  const search = {
    ...(datastore ? { datastore } : {}),
    ...(engine ? { engine } : {}),
    ...(dataStoreSpecs ? { dataStoreSpecs } : {}),
    ...(filter ? { filter } : {}),
    ...(maxResults !== undefined ? { maxResults } : {}),
  };
  const entry = { retrieval: { vertexAiSearch: search } };
  return nativeTool('vertex_ai_search', 'Searches a Vertex AI Search data store to ground the answer.', entry, (request, model) => {
    const tools = (request.config.tools ??= []);
    if (isGemini1Model(model) && tools.length > 0) {
      throw new ConfigError(
        `Tool "vertex_ai_search" cannot be used with other tools on Gemini 1.x model "${model}"; move the other tools to another agent or use a Gemini 2 model.`,
      );
    }
    tools.push(structuredClone(entry));
  });
}

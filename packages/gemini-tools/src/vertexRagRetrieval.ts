import { ConfigError } from '@adkit/flow';
import { assertToolName } from '@adkit/tool';
import { nativeTool, type GeminiNativeTool } from './geminiTool.js';

/** Options of `vertexRagRetrieval`: at least one corpus or resource. */
export interface VertexRagRetrievalOptions {
  /** Tool name (default `vertex_rag_retrieval`). */
  name?: string;
  description?: string;
  /** `projects/{project}/locations/{location}/ragCorpora/{corpus}` names. */
  ragCorpora?: string[];
  ragResources?: Array<{ ragCorpus?: string; ragFileIds?: string[] }>;
  similarityTopK?: number;
  vectorDistanceThreshold?: number;
}

/** Retrieval from Vertex AI RAG Engine corpora: appends `{retrieval: {vertexRagStore: {...}}}`. */
export function vertexRagRetrieval(options: VertexRagRetrievalOptions): GeminiNativeTool {
  const {
    name = 'vertex_rag_retrieval',
    description = 'Retrieves passages from Vertex AI RAG Engine corpora to ground the answer.',
    ragCorpora,
    ragResources,
    similarityTopK,
    vectorDistanceThreshold,
  } = options ?? {};
  assertToolName('vertexRagRetrieval', name);
  if (!ragCorpora?.length && !ragResources?.length) {
    throw new ConfigError(`vertexRagRetrieval "${name}": pass {ragCorpora: [...]} or {ragResources: [...]} naming at least one corpus.`);
  }
  if (similarityTopK !== undefined && !(Number.isInteger(similarityTopK) && similarityTopK > 0)) {
    throw new ConfigError(`vertexRagRetrieval "${name}": similarityTopK must be a positive integer, got ${String(similarityTopK)}.`);
  }
  const store = {
    ...(ragCorpora?.length ? { ragCorpora } : {}),
    ...(ragResources?.length ? { ragResources } : {}),
    ...(similarityTopK !== undefined ? { similarityTopK } : {}),
    ...(vectorDistanceThreshold !== undefined ? { vectorDistanceThreshold } : {}),
  };
  return nativeTool(name, description, { retrieval: { vertexRagStore: store } });
}

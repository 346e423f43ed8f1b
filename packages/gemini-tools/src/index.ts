// The public API of @adkit/gemini-tools. Every line here is an API decision.
export type { GeminiNativeTool } from './geminiTool.js';
export { geminiTool } from './geminiTool.js';
export { googleSearch, codeExecution, urlContext, googleMaps, enterpriseWebSearch } from './builtInTools.js';
export type { VertexAiSearchOptions } from './vertexAiSearch.js';
export { vertexAiSearch } from './vertexAiSearch.js';
export type { VertexRagRetrievalOptions } from './vertexRagRetrieval.js';
export { vertexRagRetrieval } from './vertexRagRetrieval.js';
export { isGeminiModel } from './geminiModels.js';

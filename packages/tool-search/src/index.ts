// The public API of @adkit/tool-search: every line here is an API decision.
export type { ToolSearchOptions, ToolSearchToolset } from './toolSearch.js';
export { SEARCH_TOOLS, toolSearch } from './toolSearch.js';
export type { ToolSearchScope } from './loadedTools.js';
export { loadedToolsKey } from './loadedTools.js';
export type { ToolMatch } from './toolCatalog.js';
export { MAX_QUERY_CHARS } from './toolCatalog.js';

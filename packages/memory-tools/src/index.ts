// The public API of @adkit/memory-tools. Every line here is an API decision.
export { preloadMemory, preloadMemoryTool } from './preloadMemoryTool.js';
export type { LoadedMemory } from './loadMemoryTool.js';
export { loadMemory, loadMemoryTool, LOAD_MEMORY_INSTRUCTION } from './loadMemoryTool.js';
export { formatMemories } from './formatMemories.js';

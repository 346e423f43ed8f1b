// Pins the public surface: a new export is an API decision, made here on purpose.
import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(api).sort()).toEqual(['LOAD_MEMORY_INSTRUCTION', 'formatMemories', 'loadMemory', 'loadMemoryTool', 'preloadMemory', 'preloadMemoryTool']);
});

it('#31: the ready-made tools are loadMemory and preloadMemory; the …Tool names are their deprecated old names, the same tools', () => {
  expect(api.loadMemoryTool).toBe(api.loadMemory);
  expect(api.preloadMemoryTool).toBe(api.preloadMemory);
  expect([api.loadMemory.name, api.preloadMemory.name]).toEqual(['load_memory', 'preload_memory']);
});

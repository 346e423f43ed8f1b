import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'internal/*', 'apps/*', 'examples/*', '!examples/tool-pack-template', 'bench'],
  },
});

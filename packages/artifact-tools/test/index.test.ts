// Pins the public surface: a new export is an API decision, made here on purpose.
import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(api).sort()).toEqual(['FileSystemArtifactService', 'loadArtifacts', 'loadArtifactsTool', 'partForModel']);
});

it('#31: the ready-made load_artifacts tool is loadArtifacts; loadArtifactsTool is its deprecated old name, the same tool', () => {
  expect(api.loadArtifactsTool).toBe(api.loadArtifacts);
  expect(api.loadArtifacts.name).toBe('load_artifacts');
});

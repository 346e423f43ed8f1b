// Issue #23 point 19: load_artifacts quotes at most 100 characters of each name it echoes, so a
// 1 MB name the model made up does not ride along whole in every later request.
import { createToolContext } from '@adkit/flow/testing';
import { expect, it } from 'vitest';
import { loadArtifactsTool } from '../src/index.js';

it('BT-1: an unknown 1 MB artifact name is quoted in its first 100 characters', async () => {
  const huge = 'n'.repeat(1_000_000);
  const message = await loadArtifactsTool.run(createToolContext(), { artifact_names: [huge] }).catch((error: Error) => error.message);
  expect(message).toBe(`Unknown artifact: "${'n'.repeat(100)}…". This session has no artifacts.`);
});

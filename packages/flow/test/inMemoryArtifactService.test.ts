// InMemoryArtifactService runs the shared ArtifactService suite (test/support/artifactServiceSuite.ts,
// which lists the bad input it tries); FileSystemArtifactService in @adkit/artifact-tools runs it too.
// Beyond it, here: artifactNameProblem itself, on names a caller may pass that are not strings.
import { describe, expect, it } from 'vitest';
import { InMemoryArtifactService } from '../src/index.js';
import { artifactNameProblem } from '../src/store.js';
import { PLAIN_ARTIFACT_NAMES, REFUSED_ARTIFACT_NAMES, runArtifactServiceSuite } from './support/artifactServiceSuite.js';

runArtifactServiceSuite('InMemoryArtifactService', async () => ({ service: new InMemoryArtifactService() }));

describe('artifactNameProblem', () => {
  it('accepts plain names and says what is wrong with the others', () => {
    for (const name of PLAIN_ARTIFACT_NAMES) expect(artifactNameProblem(name), name).toBeUndefined();
    for (const name of REFUSED_ARTIFACT_NAMES) expect(artifactNameProblem(name), JSON.stringify(name)).toEqual(expect.any(String));
  });

  it('refuses what is not a string', () => {
    expect(artifactNameProblem(undefined)).toBe('an artifact name must be a string, got undefined');
    expect(artifactNameProblem(null)).toBe('an artifact name must be a string, got null');
    expect(artifactNameProblem(7)).toBe('an artifact name must be a string, got number');
    expect(artifactNameProblem(['a.txt'])).toBe('an artifact name must be a string, got object');
  });

  it('decodes percent escapes only where they are well formed, and sees through several layers', () => {
    expect(artifactNameProblem('%2e%2')).toBeUndefined();
    expect(artifactNameProblem('%%2e%2e/x')).toBeUndefined();
    expect(artifactNameProblem('%25252e%25252e%25252fx')).toBe('an artifact name must not contain ".." segments');
    expect(artifactNameProblem('a%00b')).toBe('an artifact name must not contain control characters (NUL included)');
  });
});

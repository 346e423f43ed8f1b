import { cloneData } from '../content/cloneData.js';
import type { Part } from '../content/content.js';
import type { ArtifactKey, ArtifactService } from './artifactService.js';
import { assertArtifactName } from './artifactName.js';
import { assertArtifactPart } from './artifactPart.js';

/**
 * Artifacts in this process's memory, for tests and demos; `FileSystemArtifactService` in
 * `@adkit/artifact-tools` keeps them on disk. Names are checked by `assertArtifactName`, as on disk.
 */
export class InMemoryArtifactService implements ArtifactService {
  private readonly artifacts = new Map<string, Part[]>();

  async saveArtifact(request: ArtifactKey & { artifact: Part }): Promise<number> {
    assertArtifactName(request.filename, 'saveArtifact');
    assertArtifactPart(request.artifact, 'saveArtifact');
    const path = artifactPath(request);
    let versions = this.artifacts.get(path);
    if (!versions) this.artifacts.set(path, (versions = []));
    versions.push(cloneData(request.artifact));
    return versions.length - 1;
  }

  async loadArtifact(request: ArtifactKey & { version?: number }): Promise<Part | undefined> {
    assertArtifactName(request.filename, 'loadArtifact');
    const versions = this.artifacts.get(artifactPath(request));
    if (!versions || versions.length === 0) return undefined;
    const { version } = request;
    if (version !== undefined && !(Number.isInteger(version) && version >= 0)) return undefined;
    const part = version === undefined ? versions[versions.length - 1] : versions[version];
    return part && cloneData(part);
  }

  async listArtifactKeys(request: Omit<ArtifactKey, 'filename'>): Promise<string[]> {
    const names: string[] = [];
    for (const [path, versions] of this.artifacts) {
      if (versions.length === 0) continue;
      const [appName, userId, sessionId, filename] = JSON.parse(path) as [string, string, string | null, string];
      if (appName !== request.appName || userId !== request.userId) continue;
      if (sessionId === null || sessionId === request.sessionId) names.push(filename);
    }
    return names.sort();
  }

  async deleteArtifact(request: ArtifactKey): Promise<void> {
    assertArtifactName(request.filename, 'deleteArtifact');
    this.artifacts.delete(artifactPath(request));
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    assertArtifactName(request.filename, 'listVersions');
    return (this.artifacts.get(artifactPath(request)) ?? []).map((_, i) => i);
  }
}

/** A collision-free key: user-scoped names (`user:…`) belong to no session. */
function artifactPath(key: ArtifactKey): string {
  const sessionId = key.filename.startsWith('user:') ? null : key.sessionId;
  return JSON.stringify([key.appName, key.userId, sessionId, key.filename]);
}

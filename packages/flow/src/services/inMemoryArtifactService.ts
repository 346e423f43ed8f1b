import { cloneData } from '../content/cloneData.js';
import type { Part } from '../content/content.js';
import type { ArtifactKey, ArtifactService } from './artifactService.js';
import { ArtifactError } from '../errors.js';

/** Artifacts in this process's memory. */
export class InMemoryArtifactService implements ArtifactService {
  private readonly artifacts = new Map<string, Part[]>();

  async saveArtifact(request: ArtifactKey & { artifact: Part }): Promise<number> {
    if (!request.filename)
      throw new ArtifactError('saveArtifact needs a filename; pass a non-empty name such as "report.txt".');
    const path = artifactPath(request);
    let versions = this.artifacts.get(path);
    if (!versions) this.artifacts.set(path, (versions = []));
    versions.push(cloneData(request.artifact));
    return versions.length - 1;
  }

  async loadArtifact(request: ArtifactKey & { version?: number }): Promise<Part | undefined> {
    const versions = this.artifacts.get(artifactPath(request));
    if (!versions || versions.length === 0) return undefined;
    const part = request.version === undefined ? versions[versions.length - 1] : versions[request.version];
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
    this.artifacts.delete(artifactPath(request));
  }

  async listVersions(request: ArtifactKey): Promise<number[]> {
    return (this.artifacts.get(artifactPath(request)) ?? []).map((_, i) => i);
  }
}

/** A collision-free key: user-scoped names (`user:…`) belong to no session. */
function artifactPath(key: ArtifactKey): string {
  const sessionId = key.filename.startsWith('user:') ? null : key.sessionId;
  return JSON.stringify([key.appName, key.userId, sessionId, key.filename]);
}

import type { Part } from '../content/content.js';

export interface ArtifactKey {
  appName: string;
  userId: string;
  sessionId: string;
  /** A name starting with `user:` is shared by all of the user's sessions. */
  filename: string;
}

/**
 * Where artifacts (files a tool or agent saves) live, versioned from 0. Implementations:
 * `InMemoryArtifactService` here, `FileSystemArtifactService` in `@adkit/artifact-tools`; both
 * pass the same shared test suite.
 *
 * The contract: a name `assertArtifactName` refuses (`..`, absolute, NUL, …) is refused by every
 * method with an `ArtifactError`; concurrent saves of one name each get their own version and none
 * is lost; a deleted artifact starts again at version 0.
 */
export interface ArtifactService {
  /** Saves a new version and resolves to its number. */
  saveArtifact(request: ArtifactKey & { artifact: Part }): Promise<number>;
  /** The given version, or the latest; `undefined` when there is none. */
  loadArtifact(request: ArtifactKey & { version?: number }): Promise<Part | undefined>;
  /** Artifact names visible to the session, sorted. */
  listArtifactKeys(request: Omit<ArtifactKey, 'filename'>): Promise<string[]>;
  deleteArtifact(request: ArtifactKey): Promise<void>;
  listVersions(request: ArtifactKey): Promise<number[]>;
}

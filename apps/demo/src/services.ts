import {
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  type ArtifactService,
  type MemoryService,
  type SessionService,
} from '@adkit/flow';

/** Where the demo keeps sessions, artifacts and memory. */
export interface DemoServices {
  sessionService: SessionService;
  artifactService: ArtifactService;
  memoryService: MemoryService;
  /** Says where sessions live, for the header. */
  label: string;
  /** Closes the session store. */
  close(): Promise<void>;
}

/**
 * The services for `--db`: nothing (all in memory), a file (SQLite sessions, artifacts in a folder
 * beside it, so a pending approval and the notes survive a restart), or a `postgres://` URL
 * (Postgres sessions, for runners on several machines). Memory stays in this process. Each store's
 * package is loaded only when it is used.
 */
export async function demoServices(db?: string): Promise<DemoServices> {
  const memoryService = new InMemoryMemoryService();
  if (db === undefined) {
    const sessions = new InMemorySessionService();
    return { sessionService: sessions, artifactService: new InMemoryArtifactService(), memoryService, label: 'in memory (pass --db <file> to keep them)', close: async () => {} };
  }
  if (/^postgres(ql)?:\/\//.test(db)) {
    const { PostgresSessionService } = await import('@adkit/session-postgres');
    const sessions = new PostgresSessionService({ connectionString: db });
    return { sessionService: sessions, artifactService: new InMemoryArtifactService(), memoryService, label: `Postgres at ${redact(db)}`, close: () => sessions.close() };
  }
  const [{ SqliteSessionService }, { FileSystemArtifactService }] = await Promise.all([import('@adkit/session-sqlite'), import('@adkit/artifact-tools')]);
  const sessions = new SqliteSessionService({ path: db });
  return {
    sessionService: sessions,
    artifactService: new FileSystemArtifactService({ root: `${db}.artifacts` }),
    memoryService,
    label: `SQLite file ${db} (artifacts in ${db}.artifacts)`,
    close: () => sessions.close(),
  };
}

/** The URL without its password. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

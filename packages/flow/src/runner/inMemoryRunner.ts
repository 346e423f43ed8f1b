import type { BaseAgent } from '../agents/baseAgent.js';
import { InMemoryArtifactService } from '../services/inMemoryArtifactService.js';
import { InMemoryMemoryService } from '../services/inMemoryMemoryService.js';
import { InMemorySessionService } from '../sessions/inMemorySessionService.js';
import type { Plugin } from './plugin.js';
import type { Logger } from '../context/logger.js';
import { Runner } from './runner.js';
import type { CredentialManager } from '../auth/credentialManager.js';

export interface InMemoryRunnerOptions {
  agent: BaseAgent;
  appName?: string;
  plugins?: readonly Plugin[];
  autoCreateSession?: boolean;
  /** Where warnings and errors go (console-compatible); default: stderr. */
  logger?: Logger;
  /** After each run, add the session to the in-memory memory service. */
  addSessionsToMemory?: boolean;
  /** Keys confirmation digests (HMAC); see `RunnerOptions.confirmationSecret`. */
  confirmationSecret?: string;
  /** Runs the credential protocol; see `RunnerOptions.credentials`. */
  credentials?: CredentialManager;
}

/** A runner with in-memory session, artifact and memory services, for tests, demos and scripts. */
export class InMemoryRunner extends Runner {
  declare readonly sessionService: InMemorySessionService;
  declare readonly artifactService: InMemoryArtifactService;
  declare readonly memoryService: InMemoryMemoryService;

  constructor(options: InMemoryRunnerOptions) {
    super({
      appName: options.appName ?? 'InMemoryRunner',
      agent: options.agent,
      plugins: options.plugins,
      autoCreateSession: options.autoCreateSession,
      logger: options.logger,
      addSessionsToMemory: options.addSessionsToMemory,
      confirmationSecret: options.confirmationSecret,
      credentials: options.credentials,
      sessionService: new InMemorySessionService(),
      artifactService: new InMemoryArtifactService(),
      memoryService: new InMemoryMemoryService(),
    });
  }
}

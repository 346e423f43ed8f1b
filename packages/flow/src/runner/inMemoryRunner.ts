import type { BaseAgent } from '../agents/baseAgent.js';
import { InMemoryArtifactService } from '../services/inMemoryArtifactService.js';
import { InMemoryMemoryService } from '../services/inMemoryMemoryService.js';
import { InMemorySessionService } from '../sessions/inMemorySessionService.js';
import type { Plugin } from './plugin.js';
import { Runner } from './runner.js';

export interface InMemoryRunnerOptions {
  agent: BaseAgent;
  appName?: string;
  plugins?: readonly Plugin[];
  autoCreateSession?: boolean;
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
      sessionService: new InMemorySessionService(),
      artifactService: new InMemoryArtifactService(),
      memoryService: new InMemoryMemoryService(),
    });
  }
}

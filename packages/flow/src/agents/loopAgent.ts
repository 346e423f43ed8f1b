import { BaseAgent, type BaseAgentOptions } from './baseAgent.js';
import { ConfigError } from '../errors.js';
import type { Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';

export interface LoopAgentOptions extends BaseAgentOptions {
  /** Stop after this many rounds; without it the loop runs until a sub-agent escalates. */
  maxIterations?: number;
}

/** Runs its sub-agents in rounds until one escalates (e.g. through `exit_loop`) or `maxIterations`. */
export class LoopAgent extends BaseAgent {
  readonly maxIterations?: number;

  constructor(options: LoopAgentOptions) {
    super(options);
    if (options.maxIterations !== undefined && !(Number.isInteger(options.maxIterations) && options.maxIterations > 0))
      throw new ConfigError(`LoopAgent "${options.name}": maxIterations must be a positive integer, got ${options.maxIterations}.`);
    this.maxIterations = options.maxIterations;
  }

  protected async *runImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    if (this.subAgents.length === 0) return;
    for (let round = 0; this.maxIterations === undefined || round < this.maxIterations; round++) {
      for (const agent of this.subAgents) {
        let escalated = false;
        for await (const event of agent.runAsync(context)) {
          yield event;
          if (event.actions.escalate) escalated = true;
        }
        if (escalated || context.endInvocation || context.aborted) return;
      }
    }
  }
}

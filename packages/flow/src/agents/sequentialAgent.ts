import { BaseAgent } from './baseAgent.js';
import type { Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';

/** Runs its sub-agents one after another in the same session. */
export class SequentialAgent extends BaseAgent {
  protected async *runImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined> {
    for (const agent of this.subAgents) {
      yield* agent.runAsync(context);
      if (context.endInvocation || context.aborted) return;
    }
  }
}

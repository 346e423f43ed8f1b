import { ConfigError } from '../errors.js';
import type { Event } from '../content/event.js';
import type { InvocationContext } from '../context/invocationContext.js';

export interface BaseAgentOptions {
  /** An identifier (letters, digits, `_`), unique in the agent tree; not `user`. */
  name: string;
  description?: string;
  subAgents?: readonly BaseAgent[];
}

const AGENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What every agent shares: a name, sub-agents, and `runAsync`, which yields events. */
export abstract class BaseAgent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly BaseAgent[];
  private parent?: BaseAgent;

  constructor(options: BaseAgentOptions) {
    if (!AGENT_NAME.test(options.name ?? ''))
      throw new ConfigError(
        `Agent name "${options.name}" is not an identifier; use letters, digits and underscores, starting with a letter or underscore (e.g. "weather_agent").`,
      );
    if (options.name === 'user')
      throw new ConfigError('Agent name "user" is reserved for the end user\'s events; choose another name.');
    this.name = options.name;
    this.description = options.description ?? '';
    this.subAgents = [...(options.subAgents ?? [])];
    const seen = new Set<string>();
    for (const sub of this.subAgents) {
      if (sub.parent)
        throw new ConfigError(
          `Agent "${sub.name}" already has parent "${sub.parent.name}"; an agent can be the sub-agent of only one agent. Create a second instance.`,
        );
      if (seen.has(sub.name))
        throw new ConfigError(`Agent "${this.name}" has two sub-agents named "${sub.name}"; give each a unique name.`);
      seen.add(sub.name);
      sub.parent = this;
    }
  }

  /** The agent this one is a sub-agent of. */
  get parentAgent(): BaseAgent | undefined {
    return this.parent;
  }

  /** The top of the tree this agent is in. */
  get rootAgent(): BaseAgent {
    let agent: BaseAgent = this;
    while (agent.parent) agent = agent.parent;
    return agent;
  }

  /** This agent or a descendant with the given name. */
  findAgent(name: string): BaseAgent | undefined {
    if (this.name === name) return this;
    for (const sub of this.subAgents) {
      const found = sub.findAgent(name);
      if (found) return found;
    }
    return undefined;
  }

  /** Runs the agent within an invocation, yielding its events. */
  runAsync(parentContext: InvocationContext): AsyncGenerator<Event, void, undefined> {
    // The agent's own generator, not one wrapped around it: every event passes one layer fewer (#24).
    return this.runImpl(parentContext.withAgent(this));
  }

  /** The agent's own behaviour; `context.agent` is this agent. */
  protected abstract runImpl(context: InvocationContext): AsyncGenerator<Event, void, undefined>;
}

import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { elicitationRequest, type McpElicitationAnswer, type McpElicitationRequest } from './elicitation.js';

/** A call in flight on a session that can take the server's requests for input. */
export interface ElicitationTarget {
  /** True while it waits for an answer: it cannot be the one asking again. */
  readonly waiting: boolean;
  /** Hands the request to the call; resolves with the answer for the server. */
  elicit(request: McpElicitationRequest): Promise<McpElicitationAnswer>;
  /** Reports a request that could not be routed (the call's logger). */
  warn(message: string): void;
}

/**
 * Routes a session's `elicitation/create` requests to the call that asked. MCP's request names
 * no tool call, so the asker is the one call in flight on the session not already waiting for an
 * answer; when there are none or several, the request is answered `cancel` (and reported), since
 * answering for the wrong call would hand the user's input to the wrong tool.
 */
export class ElicitationRouter {
  private readonly targets = new Set<ElicitationTarget>();

  /** Adds a call in flight; the returned function removes it. */
  add(target: ElicitationTarget): () => void {
    this.targets.add(target);
    return () => void this.targets.delete(target);
  }

  /** The answer to one `elicitation/create` (params already validated by the SDK). */
  async receive(params: Record<string, unknown>): Promise<ElicitResult> {
    const open = [...this.targets].filter((target) => !target.waiting);
    if (open.length !== 1) {
      // With no call in flight there is no one to tell.
      if (open.length > 1)
        open[0]!.warn(
          `an MCP server asked for input (elicitation/create) while ${open.length} calls ran on its session; MCP does not say which one asked, so it was answered cancel`,
        );
      return { action: 'cancel' };
    }
    const answer = await open[0]!.elicit(elicitationRequest(params));
    return answer as ElicitResult;
  }
}

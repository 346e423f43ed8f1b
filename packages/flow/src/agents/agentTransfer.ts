import type { BaseAgent } from './baseAgent.js';
import type { FunctionDeclaration } from '../content/content.js';
import { LlmAgent } from './llmAgent.js';
import type { RunnableTool } from '../tools/tool.js';
import { quoted } from '../llmFlow/quoted.js';

/** The function the flow adds for handing the conversation to another agent (BT-8). */
export const TRANSFER_TO_AGENT = 'transfer_to_agent';

/**
 * The agents an LLM agent may hand the conversation to (FL-1 #11): its sub-agents, then its parent
 * and its peers when the parent is an LLM agent and the agent allows it.
 */
export function transferTargets(agent: LlmAgent): BaseAgent[] {
  const chat = (candidate: BaseAgent) => !(candidate instanceof LlmAgent && candidate.mode !== 'chat');
  const targets: BaseAgent[] = agent.subAgents.filter(chat);
  const parent = agent.parentAgent;
  // A single-turn or task agent answers its parent's call and hands nothing on.
  if (!(parent instanceof LlmAgent) || agent.mode !== 'chat') return targets;
  if (!agent.disallowTransferToParent) targets.push(parent);
  if (!agent.disallowTransferToPeers) targets.push(...parent.subAgents.filter((peer) => peer !== agent && chat(peer)));
  return targets;
}

/** The instruction that tells the model whom it can hand over to, and how. */
export function transferInstructions(agent: LlmAgent, targets: readonly BaseAgent[]): string {
  const list = targets.map((target) => `Agent name: ${target.name}\nAgent description: ${target.description}`).join('\n\n');
  let text =
    `You have a list of other agents to transfer to:\n\n${list}\n\n` +
    'If you are the best to answer the question according to your description, you can answer it.\n\n' +
    `If another agent is better for answering the question according to its description, call \`${TRANSFER_TO_AGENT}\` ` +
    'function to transfer the question to that agent. When transferring, do not generate any text other than the function call.';
  const parent = agent.parentAgent;
  if (parent && targets.includes(parent))
    text +=
      `\n\nYour parent agent is ${parent.name}. If neither the other agents nor you are best for answering the ` +
      'question according to the descriptions, transfer to your parent agent.';
  return text;
}

/** `transfer_to_agent` for the given targets (BT-8): it records the transfer; the flow runs the agent. */
export function transferToAgentTool(targets: readonly BaseAgent[]): RunnableTool {
  const names = targets.map((target) => target.name);
  const declaration: FunctionDeclaration = {
    name: TRANSFER_TO_AGENT,
    description:
      'Transfer the question to another agent. This tool hands off control to another agent when it is more suitable to answer the question according to its description.',
    parametersJsonSchema: {
      type: 'object',
      properties: { agent_name: { type: 'string', enum: names, description: 'The name of the agent to transfer to.' } },
      required: ['agent_name'],
    },
  };
  return {
    name: TRANSFER_TO_AGENT,
    description: declaration.description!,
    declaration: () => declaration,
    async run(ctx, args) {
      const name = args.agent_name;
      if (typeof name !== 'string' || name === '')
        throw new Error(`${TRANSFER_TO_AGENT} needs agent_name, one of: ${names.join(', ')}.`);
      // FL-5 step 6: only the targets this step offered; another agent of the tree is refused.
      if (!names.includes(name))
        throw new Error(`Cannot transfer to agent "${quoted(name)}": it is not a transfer target here. Allowed targets: ${names.join(', ')}.`);
      ctx.actions.transferToAgent = name;
      return {};
    },
  };
}

/**
 * Whether the conversation may stay with this agent between messages: it and every ancestor are
 * LLM agents that allow transfer back to their parent, so the user is never stuck in a sub-agent
 * that cannot hand back.
 */
export function isTransferableAcrossTree(agent: BaseAgent): boolean {
  for (let current: BaseAgent | undefined = agent; current; current = current.parentAgent)
    if (!(current instanceof LlmAgent) || current.disallowTransferToParent || current.mode !== 'chat') return false;
  return true;
}

/** What the agent-transfer processor adds to every request of one agent run, built once per run. */
export interface TransferSetup {
  instructions: string;
  tool: RunnableTool;
  targets: readonly BaseAgent[];
}

/** The transfer instructions and tool for this agent, or `undefined` when it has no targets. */
export function transferSetup(agent: LlmAgent): TransferSetup | undefined {
  const targets = transferTargets(agent);
  if (targets.length === 0) return undefined;
  return { instructions: transferInstructions(agent, targets), tool: transferToAgentTool(targets), targets };
}

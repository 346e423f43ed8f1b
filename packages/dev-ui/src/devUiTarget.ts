import type { BaseAgent, RunConfig, Runner } from '@adkit/flow';
import type { TimelineRecorder } from './timelineRecorder.js';

/** One agent the page can pick: its runner, and the recorder of the runner's dev UI plugin. */
export interface DevUiTarget {
  /** The runner's app name, which sessions are stored under; unique among the targets. */
  appName: string;
  runner: Runner;
  /** Absent when the runner has no `devUiPlugin()`: no timeline and no model request then. */
  recorder?: TimelineRecorder;
  runConfig: RunConfig;
  /** The runner's `confirmationSecret`: pending confirmations are checked with it, as approving checks them. */
  confirmationSecret?: string;
}

/** The agent's tree as names, root first, for the page's picker. */
export function agentNames(agent: BaseAgent): string[] {
  const names: string[] = [];
  const visit = (node: BaseAgent, depth: number) => {
    if (depth > 20 || names.length >= 200) return;
    names.push(node.name);
    for (const child of node.subAgents) visit(child, depth + 1);
  };
  visit(agent, 0);
  return names;
}

import type { ReadonlyContext, State } from '@adkit/flow';

/**
 * What the session records about the skills an agent loaded through one skill toolset, under
 * `loadedSkillsKey(toolsetName, agentName)` (session scope, saved with the `load_skill` response).
 */
export interface LoadedSkills {
  /** Every skill `load_skill` loaded in this session, oldest first; a reload moves it to the end. */
  readonly loaded: readonly string[];
  /** The skill loaded last: the one whose `allowed-tools` restrict calls. */
  readonly active?: string;
  /** The run (`runAsync` call) that loaded `active`; the restriction ends with it. */
  readonly invocationId?: string;
}

/** The state key of an agent's loaded skills for one skill toolset. */
export function loadedSkillsKey(toolsetName: string, agentName: string): string {
  return `adkit.skills:${toolsetName}:${agentName}`;
}

/** The agent's loaded skills; an absent or malformed value reads as none. */
export function readLoadedSkills(ctx: ReadonlyContext, toolsetName: string): LoadedSkills {
  const value = ctx.state.get(loadedSkillsKey(toolsetName, ctx.agentName));
  if (typeof value !== 'object' || value === null) return { loaded: [] };
  const record = value as Record<string, unknown>;
  const loaded = Array.isArray(record.loaded) ? record.loaded.filter((name): name is string => typeof name === 'string') : [];
  const active = typeof record.active === 'string' ? record.active : undefined;
  const invocationId = typeof record.invocationId === 'string' ? record.invocationId : undefined;
  return { loaded, ...(active === undefined ? {} : { active }), ...(invocationId === undefined ? {} : { invocationId }) };
}

/** Records that `load_skill` loaded the skill in this run (a state write on the call's event). */
export function recordLoadedSkill(ctx: ReadonlyContext & { readonly state: State }, toolsetName: string, name: string): void {
  const { loaded } = readLoadedSkills(ctx, toolsetName);
  const next: LoadedSkills = { loaded: [...loaded.filter((item) => item !== name), name], active: name, invocationId: ctx.invocationId };
  ctx.state.set(loadedSkillsKey(toolsetName, ctx.agentName), next);
}

/** The skill whose `allowed-tools` restrict this run's calls, if any. */
export function activeSkill(ctx: ReadonlyContext, toolsetName: string): string | undefined {
  const record = readLoadedSkills(ctx, toolsetName);
  return record.invocationId === ctx.invocationId ? record.active : undefined;
}

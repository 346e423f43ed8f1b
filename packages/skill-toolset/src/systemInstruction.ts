/**
 * The instruction added to every request that has skills (SK-12), before the listing: what skills
 * are, and that the model must load one with `load_skill` (parameter `name`) before using it.
 */
export const DEFAULT_SKILL_SYSTEM_INSTRUCTION = `You have access to specialized "skills" for complex tasks. You MUST use the skill tools to work with them.

A skill is a folder of instructions and resources that extends what you can do for a specific kind of task. Each skill folder contains:
- SKILL.md (required): the skill's metadata and its detailed instructions in markdown.
- references/ (optional): further documentation or examples.
- assets/ (optional): templates, scripts and other resources the skill uses.
- scripts/ (optional): executable scripts meant to be run with bash.

This is very important:
1. If a skill seems relevant to the user's request, you MUST call the \`load_skill\` tool with \`name="<SKILL_NAME>"\` to read its full instructions before you proceed.
2. After reading them, follow the instructions exactly before replying to the user: when they list several steps, complete all of them, in order.
3. Use the \`load_skill_resource\` tool to read the files in a skill's folder (\`references/*\`, \`assets/*\`, \`scripts/*\`). Do NOT use other tools to access these files.`;

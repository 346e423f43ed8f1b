/**
 * A skill's frontmatter (SK-2), validated: the six fields of the Agent Skills specification.
 * `allowed-tools` is always a list here, whatever form the file used; `metadata` values are
 * strings (lenient mode turns other values into JSON text, with a warning).
 */
export interface SkillFrontmatter {
  /** 1–64 characters, `a-z`, `0-9` and `-` (SK-3); how the model names the skill. */
  readonly name: string;
  /** What the skill does and when to use it; what the model chooses by. */
  readonly description: string;
  readonly license?: string;
  /** Environment needs (products, packages, network), at most 500 characters. */
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** Pre-approved tools, e.g. `["Bash(git:*)", "Read"]`; see the README for what adkit does with them. */
  readonly 'allowed-tools'?: readonly string[];
}

/** The frontmatter fields the Agent Skills specification defines, in its order. */
export const FRONTMATTER_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;

/** Limits of SK-3, in characters (Unicode code points), as the Agent Skills specification counts. */
export const SKILL_LIMITS = Object.freeze({ name: 64, description: 1024, compatibility: 500 });

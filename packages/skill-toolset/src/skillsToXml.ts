import type { SkillFrontmatter } from './skillFrontmatter.js';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&#34;' };

/** HTML-escapes `& < > ' "` as SK-11 does (`&amp; &lt; &gt; &#39; &#34;`). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>'"]/g, (char) => ESCAPES[char]!);
}

/**
 * The skill listing the model sees (SK-11), in the given order:
 * `<available_skills>\n<skill>\n<name>\n…\n</name>\n<description>\n…\n</description>\n</skill>\n…</available_skills>`,
 * with names and descriptions escaped and no trailing newline.
 */
export function skillsToXml(skills: readonly Pick<SkillFrontmatter, 'name' | 'description'>[]): string {
  let xml = '<available_skills>\n';
  for (const skill of skills) xml += skillXml(skill);
  return `${xml}</available_skills>`;
}

/**
 * The listing of `skillsToXml`, cut to at most `maxChars` characters: the first skills that fit,
 * then a line saying how many more there are and how to reach them. `listed` counts the skills shown.
 */
export function cappedSkillsXml(
  skills: readonly Pick<SkillFrontmatter, 'name' | 'description'>[],
  maxChars: number,
): { xml: string; listed: number } {
  const full = skillsToXml(skills);
  if (full.length <= maxChars) return { xml: full, listed: skills.length };
  const note = (omitted: number) =>
    `(${omitted} more skill${omitted === 1 ? ' is' : 's are'} not listed here; call list_skills to see them all, or load_skill with a name you know.)\n`;
  const closing = '</available_skills>';
  // The note's length for the largest count it can show, so what fits stays within the budget.
  const reserved = '<available_skills>\n'.length + note(skills.length).length + closing.length;
  let xml = '<available_skills>\n';
  let listed = 0;
  for (const skill of skills) {
    const entry = skillXml(skill);
    if (xml.length + entry.length + reserved - '<available_skills>\n'.length > maxChars) break;
    xml += entry;
    listed++;
  }
  return { xml: `${xml}${note(skills.length - listed)}${closing}`, listed };
}

function skillXml(skill: Pick<SkillFrontmatter, 'name' | 'description'>): string {
  return `<skill>\n<name>\n${escapeXml(skill.name)}\n</name>\n<description>\n${escapeXml(skill.description)}\n</description>\n</skill>\n`;
}

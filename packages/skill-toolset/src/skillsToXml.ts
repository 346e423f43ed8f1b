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
  for (const skill of skills)
    xml += `<skill>\n<name>\n${escapeXml(skill.name)}\n</name>\n<description>\n${escapeXml(skill.description)}\n</description>\n</skill>\n`;
  return `${xml}</available_skills>`;
}

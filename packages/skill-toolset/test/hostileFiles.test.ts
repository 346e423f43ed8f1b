// #23 point 11: only regular files are read. A SKILL.md or resource that is a named pipe (no
// writer: opening it for reading would block forever), a socket or a device is skipped with a
// warning, in lenient and strict mode, and the other skills stay usable; reading one as a resource
// is an error the model sees. A listing over maxListingChars (10,000 skills) is capped with a
// warning naming the option.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from '@adkit/flow';
import { ScriptedModel, functionCallResponse, textResponse } from '@adkit/flow/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LISTING_CHARS, fileSystemSource, inMemorySource, skillToolset } from '../src/index.js';
import { agentRunner, collectingLogger, responses, skillMd, systemText, tempDir, writeFiles } from './support.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listenOn(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
}

/** A skills folder with one good skill and three whose SKILL.md is a pipe, a socket and a device. */
async function hostileFolder(): Promise<string> {
  const root = await tempDir();
  await writeFiles(root, { 'good/SKILL.md': skillMd('good'), 'good/references/guide.md': 'read me' });
  for (const name of ['piped', 'socketed', 'device']) await mkdir(join(root, name));
  execFileSync('mkfifo', [join(root, 'piped', 'SKILL.md')]);
  await listenOn(join(root, 'socketed', 'SKILL.md'));
  await symlink('/dev/zero', join(root, 'device', 'SKILL.md'));
  return root;
}

describe('#23 point 11: only regular files are read', () => {
  for (const strict of [false, true]) {
    it(`a SKILL.md that is a named pipe, a socket or a device is skipped with a warning (${strict ? 'strict' : 'lenient'})`, async () => {
      const root = await hostileFolder();
      const logger = collectingLogger();
      const source = fileSystemSource(root, { strict, logger });
      const listed = await source.listFrontmatters();
      expect(listed.map((skill) => skill.name)).toEqual(['good']);
      expect(logger.warnings).toEqual([
        '@adkit/skill-toolset: device/SKILL.md: SKILL.md is a device, not a regular file; only regular files are read (skipped)',
        '@adkit/skill-toolset: piped/SKILL.md: SKILL.md is a named pipe, not a regular file; only regular files are read (skipped)',
        '@adkit/skill-toolset: socketed/SKILL.md: SKILL.md is a socket, not a regular file; only regular files are read (skipped)',
      ]);
      expect(await source.loadInstructions('good')).toBe('# good\n\nStep one.\n');
    });
  }

  it('a resource that is a named pipe or a device is not listed, and loading it is an error the model sees, without blocking', async () => {
    const root = await tempDir();
    await writeFiles(root, { 'good/SKILL.md': skillMd('good'), 'good/references/guide.md': 'read me' });
    execFileSync('mkfifo', [join(root, 'good', 'references', 'pipe.md')]);
    await symlink('/dev/zero', join(root, 'good', 'references', 'zero.md'));
    const source = fileSystemSource(root);
    expect(await source.listResources('good')).toEqual(['references/guide.md']);
    await expect(source.loadResource('good', 'references/pipe.md')).rejects.toThrow(
      'invalid resource path "references/pipe.md" for skill "good": it is a named pipe, not a regular file',
    );

    const model = new ScriptedModel([
      functionCallResponse([
        { name: 'load_skill_resource', args: { skill_name: 'good', resource_path: 'references/pipe.md' } },
        { name: 'load_skill_resource', args: { skill_name: 'good', resource_path: 'references/guide.md' } },
      ]),
      textResponse('done'),
    ]);
    const { turn } = agentRunner(model, { toolsets: [skillToolset({ source })] });
    const answered = responses(await turn('go'));
    expect(answered.map((r) => r.response.error ?? r.response.content)).toEqual([
      'load resource \'references/pipe.md\' from skill \'good\': invalid resource path "references/pipe.md" for skill "good": it is a named pipe, not a regular file',
      'read me',
    ]);
  });
});

describe('#23 point 11: the listing in every request has a size budget', () => {
  const many = (count: number) =>
    inMemorySource(
      Array.from({ length: count }, (_, i) => ({
        frontmatter: { name: `skill-${String(i).padStart(5, '0')}`, description: `Handles task number ${i} of the catalogue, with care and in full.` },
        instructions: 'x',
      })),
    );

  it('10,000 skills: the system instruction lists the first that fit in maxListingChars and says how many more; one warning names the option', async () => {
    const model = new ScriptedModel([textResponse('one'), textResponse('two')]);
    const { turn, logger } = agentRunner(model, { toolsets: [skillToolset({ source: many(10_000) })] });
    await turn('hi');
    await turn('again');
    const text = systemText(model.requests[0]!);
    const listing = text.slice(text.indexOf('<available_skills>'));
    expect(listing.length).toBeLessThanOrEqual(DEFAULT_MAX_LISTING_CHARS);
    const shown = listing.match(/<name>/g)!.length;
    expect(shown).toBeGreaterThan(100);
    expect(listing).toContain(`<name>\nskill-${String(shown - 1).padStart(5, '0')}\n</name>`);
    expect(listing).not.toContain(`skill-${String(shown).padStart(5, '0')}`);
    expect(listing.endsWith(`(${10_000 - shown} more skills are not listed here; call list_skills to see them all, or load_skill with a name you know.)\n</available_skills>`)).toBe(true);
    expect(systemText(model.requests[1]!)).toBe(text);
    expect(logger.warnings).toEqual([
      `@adkit/skill-toolset: skill toolset "SkillToolset": the listing of 10000 skills is over maxListingChars (50000 characters), so every request lists only the first ${shown}; raise maxListingChars to list more, or split the skills across toolsets`,
    ]);
  });

  it('maxListingChars sets the budget; a listing within it is whole and warns nothing; a bad value is a ConfigError', async () => {
    const model = new ScriptedModel([textResponse('ok'), textResponse('ok')]);
    const small = agentRunner(model, { toolsets: [skillToolset({ source: many(40), maxListingChars: 2_000 })] });
    await small.turn('hi');
    const listing = systemText(model.requests[0]!).split('\n\n').at(-1)!;
    expect(listing.length).toBeLessThanOrEqual(2_000);
    expect(listing).toMatch(/\(\d+ more skills are not listed here;/);
    expect(small.logger.warnings[0]).toContain('over maxListingChars (2000 characters)');

    const whole = agentRunner(new ScriptedModel([textResponse('ok')]), { toolsets: [skillToolset({ source: many(3) })] });
    await whole.turn('hi');
    expect(whole.logger.warnings).toEqual([]);

    expect(() => skillToolset({ source: many(1), maxListingChars: 10 })).toThrow(
      new ConfigError('skillToolset "SkillToolset": maxListingChars must be a whole number of characters, at least 1000, got 10.'),
    );
  });
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createUserContent,
  getFunctionResponses,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type Event,
  type LlmAgentOptions,
  type Logger,
} from '@adkit/flow';
import type { ScriptedModel } from '@adkit/flow/testing';
import { afterEach } from 'vitest';

/** The corpus of real skills, a byte-for-byte copy of shared/fixtures/skills (read only: copy or link into a temp dir to change anything). */
export const FIXTURES = fileURLToPath(new URL('./fixtures/skills', import.meta.url));

/** A logger that keeps what it is told. */
export function collectingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => void warnings.push(message), error: (message) => void warnings.push(`error: ${message}`) };
}

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temp dir removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'adkit-skills-'));
  made.push(dir);
  return dir;
}

/** Writes files (path → content) below `root`, creating folders. */
export async function writeFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** A minimal valid SKILL.md. */
export function skillMd(name: string, description = `Does ${name} things.`, extra = '', body = `# ${name}\n\nStep one.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;
}

/** An agent run by a real runner (in-memory sessions) whose logger collects warnings. */
export function agentRunner(model: ScriptedModel, options: Omit<LlmAgentOptions, 'name' | 'model'>) {
  const logger = collectingLogger();
  const sessionService = new InMemorySessionService();
  const runner = new Runner({
    appName: 'skills-test',
    agent: new LlmAgent({ name: 'helper', model, ...options }),
    sessionService,
    autoCreateSession: true,
    logger,
  });
  /** Runs one user turn and returns its events. */
  const turn = async (text: string, sessionId = 's1'): Promise<Event[]> => {
    const events: Event[] = [];
    for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage: createUserContent(text) })) events.push(event);
    return events;
  };
  return { runner, logger, sessionService, turn };
}

/** The function responses of the events, by name, in order. */
export function responses(events: readonly Event[]): { name: string; response: Record<string, unknown> }[] {
  return events
    .filter((event) => !event.partial)
    .flatMap((event) => getFunctionResponses(event))
    .map((response) => ({ name: response.name, response: response.response ?? {} }));
}

/** The system instruction text of a request, joined. */
export function systemText(request: { config: { systemInstruction?: { parts?: { text?: string }[] } } }): string {
  return (request.config.systemInstruction?.parts ?? []).map((part) => part.text ?? '').join('');
}

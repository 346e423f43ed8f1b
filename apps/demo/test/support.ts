import { plainOutput } from '../src/output.js';
import { runDemo, type DemoOptions } from '../src/runDemo.js';
import { createStyle } from '../src/style.js';

/** Runs the scripted demo in this process, offline and without colours, and returns its lines. */
export async function demoLines(options: Partial<DemoOptions> = {}): Promise<string[]> {
  let text = '';
  await runDemo({ env: {}, style: createStyle(false), output: plainOutput((chunk) => (text += chunk)), ...options });
  return text.split('\n').slice(0, -1);
}

/**
 * The transcript with what differs between runs replaced by placeholders: memory ids and times,
 * the free ports of the servers on 127.0.0.1, and the consent link's query (a new client id,
 * state and PKCE challenge each run).
 */
export function normalised(lines: readonly string[]): string[] {
  return lines.map((line) =>
    line
      .replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<id>"')
      .replace(/"timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/g, '"timestamp":"<time>"')
      .replace(/http:\/\/127\.0\.0\.1:\d+\/auth\?\S+/g, 'http://127.0.0.1:<port>/auth?<query>')
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>'),
  );
}

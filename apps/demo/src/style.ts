/** How the transcript paints each kind of text: ANSI colours on a terminal, plain text when piped. */
export interface Style {
  readonly colors: boolean;
  user(text: string): string;
  agent(text: string): string;
  call(text: string): string;
  result(text: string): string;
  waiting(text: string): string;
  answer(text: string): string;
  error(text: string): string;
  dim(text: string): string;
  heading(text: string): string;
}

const paint = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/** A style with colours (`colors: true`) or without. */
export function createStyle(colors: boolean): Style {
  if (!colors) {
    const same = (text: string) => text;
    return { colors, user: same, agent: same, call: same, result: same, waiting: same, answer: same, error: same, dim: same, heading: same };
  }
  return {
    colors,
    user: paint(36, 39), // cyan
    agent: paint(32, 39), // green
    call: paint(33, 39), // yellow
    result: paint(2, 22), // dim
    waiting: paint(35, 39), // magenta
    answer: paint(1, 22), // bold
    error: paint(31, 39), // red
    dim: paint(2, 22),
    heading: paint(1, 22),
  };
}

/**
 * Whether to colour the output: only on a terminal, never with `NO_COLOR` set (no-color.org),
 * always with `FORCE_COLOR` set to anything but `0`.
 */
export function wantsColor(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0';
  return stream.isTTY === true;
}

/** Removes ANSI colour codes (for tests and for measuring a line). */
export function stripAnsi(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

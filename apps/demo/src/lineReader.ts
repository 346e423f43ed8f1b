import { createInterface } from 'node:readline';

/** Lines of an input stream, one at a time, whether typed at a terminal or piped in. */
export interface LineReader {
  /** The next line; `undefined` once the input has ended. */
  next(): Promise<string | undefined>;
  close(): void;
}

/**
 * Reads lines as they come and keeps the ones nobody asked for yet, so piped input (which arrives
 * all at once, then ends) is answered line by line, in order, like typing.
 */
export function lineReader(input: NodeJS.ReadableStream): LineReader {
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  const queued: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  rl.on('line', (line) => {
    const resolve = waiting.shift();
    if (resolve) resolve(line);
    else queued.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  });
  return {
    next: () => {
      if (queued.length > 0) return Promise.resolve(queued.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => rl.close(),
  };
}

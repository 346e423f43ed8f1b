#!/usr/bin/env node
import { parseCliOptions, USAGE } from './cliOptions.js';
import { plainOutput, terminalOutput } from './output.js';
import { runDemo } from './runDemo.js';
import { runInteractive } from './runInteractive.js';
import { createStyle, wantsColor } from './style.js';

let options;
try {
  options = parseCliOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
} else {
  const style = createStyle(options.color ?? wantsColor(process.stdout, process.env));
  const tty = process.stdout.isTTY === true;
  const write = (text: string) => void process.stdout.write(text);
  const common = { env: process.env, style, ...(options.db ? { db: options.db } : {}), trace: options.trace };
  if (options.interactive)
    await runInteractive({ ...common, input: process.stdin, output: tty ? terminalOutput(process.stdout, style) : plainOutput(write), echo: !process.stdin.isTTY });
  else await runDemo({ ...common, output: plainOutput(write) });
}

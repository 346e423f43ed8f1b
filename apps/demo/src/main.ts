#!/usr/bin/env node
import { errorMessage } from '@adkit/flow';
import { parseCliOptions, USAGE, type CliOptions } from './cliOptions.js';
import { plainOutput, terminalOutput } from './output.js';
import { runDemo } from './runDemo.js';
import { runInteractive } from './runInteractive.js';
import { createStyle, wantsColor } from './style.js';

let options: CliOptions;
try {
  options = parseCliOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${errorMessage(error)}\n\n${USAGE}`);
  process.exit(2);
}

if (options.help) console.log(USAGE);
else {
  const style = createStyle(options.color ?? wantsColor(process.stdout, process.env));
  const write = (text: string) => void process.stdout.write(text);
  const common = { env: process.env, style, ...(options.db ? { db: options.db } : {}), trace: options.trace };
  try {
    if (options.web) {
      const [{ serveDevUi }, { DemoApp }, { DEMO_USER }] = await Promise.all([
        import('@adkit/dev-ui'),
        import('./demoApp.js'),
        import('./demoScript.js'),
      ]);
      const app = await DemoApp.open({ ...common, web: true, output: plainOutput(write) });
      const devUi = await serveDevUi({ runner: app.runner, port: Number(process.env.PORT ?? 8000), userId: DEMO_USER });
      console.log([...app.header(), `adkit dev UI on ${devUi.url} (Ctrl+C stops it)`].join('\n'));
      process.once('SIGINT', () => void devUi.close().finally(() => app.close()));
    } else if (options.interactive) {
      // Ctrl+C ends the input: the chat finishes the turn in progress, closes the MCP servers and
      // the store, and leaves what waits in the session. A second Ctrl+C stops at once.
      const interrupted = new AbortController();
      process.on('SIGINT', () => {
        if (interrupted.signal.aborted) process.exit(130);
        interrupted.abort();
      });
      const output = process.stdout.isTTY ? terminalOutput(process.stdout, style) : plainOutput(write);
      await runInteractive({ ...common, input: process.stdin, output, echo: !process.stdin.isTTY, signal: interrupted.signal });
    } else await runDemo({ ...common, output: plainOutput(write) });
  } catch (error) {
    console.error(`adkit demo: ${errorMessage(error)}`);
    process.exitCode = 1;
  }
}

import { parseArgs } from 'node:util';

/** The demo's command line. */
export interface CliOptions {
  interactive: boolean;
  db?: string;
  trace: boolean;
  web: boolean;
  color?: boolean;
  help: boolean;
}

/** What `--help` prints. */
export const USAGE = `usage: npm run demo -- [options]

  (no options)        run the scripted demo and print its transcript
  -i, --interactive   chat with the assistant; you answer its approvals
  --db <file|url>     keep sessions in a SQLite file (or a postgres:// URL), so a pending
                      approval survives a restart
  --trace             print each OpenTelemetry span (@adkit/otel) as it ends
  --web               serve the assistant on a web page (@adkit/dev-ui, 127.0.0.1; PORT sets the port)
  --color, --no-color force colours on or off (default: on a terminal, off when piped)
  -h, --help          this text

  OPENAI_API_KEY (+ OPENAI_BASE_URL, ADKIT_OPENAI_MODEL) or GEMINI_API_KEY (+ ADKIT_GEMINI_MODEL)
  switch from the offline demo brain to a real model.`;

/** Parses the arguments; throws a `TypeError` with a readable message on a bad one. */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      interactive: { type: 'boolean', short: 'i', default: false },
      db: { type: 'string' },
      trace: { type: 'boolean', default: false },
      web: { type: 'boolean', default: false },
      color: { type: 'boolean' },
      'no-color': { type: 'boolean' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.db !== undefined && values.db.trim() === '') throw new TypeError('--db needs a file name or a postgres:// URL.');
  const color = values['no-color'] ? false : values.color;
  return {
    interactive: values.interactive ?? false,
    trace: values.trace ?? false,
    web: values.web ?? false,
    help: values.help ?? false,
    ...(values.db !== undefined ? { db: values.db } : {}),
    ...(color !== undefined ? { color } : {}),
  };
}

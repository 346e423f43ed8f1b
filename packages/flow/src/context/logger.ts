/** Where adkit reports warnings and errors: `console` fits, as do pino, winston and friends. */
export interface Logger {
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
  info?(message: string, ...details: unknown[]): void;
  debug?(message: string, ...details: unknown[]): void;
}

/** The default logger: warnings and errors to stderr (`console.warn`/`console.error`), never stdout. */
export const stderrLogger: Logger = {
  warn: (message, ...details) => console.warn(message, ...details),
  error: (message, ...details) => console.error(message, ...details),
};

/**
 * Collects the process warnings emitted while `work` runs (and one turn after, when Node emits
 * them), without printing them: a test that provokes or checks for a warning such as
 * `MaxListenersExceededWarning` must not leave a real-looking leak report in `npm test` output.
 * `process.emitWarning` (which Node's own emitters call) is replaced while the work runs; a
 * warning emitted some other way is still collected through the `warning` event.
 */
export async function processWarnings(work: () => Promise<void>): Promise<Error[]> {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, options?: string | { type?: string; code?: string }, code?: string) => {
    warnings.push(asWarning(warning, options, code));
  }) as typeof process.emitWarning;
  process.on('warning', onWarning);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    process.emitWarning = emitWarning;
    process.off('warning', onWarning);
  }
  return warnings;
}

/** The warning as Node would emit it: an Error named for its type (default `Warning`). */
function asWarning(warning: string | Error, options: string | { type?: string; code?: string } | undefined, code: string | undefined): Error {
  if (warning instanceof Error) return warning;
  const type = typeof options === 'string' ? options : options?.type;
  const error = new Error(String(warning));
  error.name = type ?? 'Warning';
  const warningCode = typeof options === 'string' ? code : options?.code;
  if (warningCode !== undefined) Object.assign(error, { code: warningCode });
  return error;
}

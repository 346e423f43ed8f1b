/** Collects the process warnings emitted while `work` runs (and one turn after, when Node emits them). */
export async function processWarnings(work: () => Promise<void>): Promise<Error[]> {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

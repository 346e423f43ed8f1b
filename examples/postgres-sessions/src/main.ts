// Runs the README example (sessionConflict.ts) against the Postgres database in DATABASE_URL:
// `DATABASE_URL=postgres://localhost/adkit npm run example -- postgres-sessions`. It may run any
// number of times (it starts from a new session each time). Without DATABASE_URL, or when the
// server cannot be reached, it says so in one line and exits 1.
if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL to a Postgres database this example may create tables in, e.g. DATABASE_URL=postgres://localhost/adkit');
  process.exitCode = 1;
} else {
  try {
    await import('./sessionConflict.js');
  } catch (error) {
    // The service wraps a database failure in a SessionError; its cause says what happened.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const problem = { ECONNREFUSED: 'nothing listens there', ENOTFOUND: 'no such host', '28P01': 'the password was refused', '3D000': 'no such database' }[cause?.code ?? ''];
    if (!problem) throw error;
    const target = new URL(process.env.DATABASE_URL);
    console.error(`Cannot use the Postgres database ${target.host}${target.pathname} (DATABASE_URL): ${problem} (${cause!.code}).`);
    process.exitCode = 1;
  }
}

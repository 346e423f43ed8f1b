// Finds a PostgreSQL server for the tests once per run: ADKIT_TEST_PG_URL when set (.ci/run sets
// it), else a throwaway cluster started here when the binaries are installed, stopped after. With
// neither, the Postgres tests are skipped with one line saying how to enable them — except on CI
// (CI=true), where a skipped Postgres suite is a failure.
import type { TestProject } from 'vitest/node';
import { findPostgresBin, HOW_TO_ENABLE, startCluster } from './pgCluster.mjs';
import type {} from './providedContext.js';


export async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.ADKIT_TEST_PG_URL;
  if (given) {
    project.provide('adkitPgUrl', given);
    return undefined;
  }
  const bin = findPostgresBin();
  if (!bin) {
    if (process.env.CI === 'true')
      throw new Error(`${project.name}: the Postgres tests cannot be skipped on CI; ${HOW_TO_ENABLE} (.ci/run does both).`);
    console.log(`${project.name}: Postgres tests skipped; to run them, ${HOW_TO_ENABLE}.`);
    project.provide('adkitPgUrl', undefined);
    return undefined;
  }
  const cluster = await startCluster(bin);
  const stop = () => cluster.stop();
  process.once('exit', stop);
  project.provide('adkitPgUrl', cluster.url);
  return () => {
    process.off('exit', stop);
    stop();
  };
}

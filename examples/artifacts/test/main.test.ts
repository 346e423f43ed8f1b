// The example runs as `node dist/main.js` would, offline, in a temporary working directory (it
// keeps artifacts in ./artifacts there): the report is saved as a file, then load_artifacts brings
// it to the model on the next request. Run again, the same folder gives the next version.
// (@adkit/artifact-tools' README test checks that its README shows src/main.ts and this output.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemArtifactService } from '@adkit/artifact-tools';
import { runExample } from '@adkit/test-support';
import { expect, it, onTestFinished } from 'vitest';

const main = new URL('../src/main.ts', import.meta.url);
const output = (version: number) => [
  '[call write_report({"quarter":"Q3"})]',
  `[response write_report: {"version":${version}}]`,
  'Saved report.md.',
  '[call load_artifacts({"artifact_names":["report.md"]})]',
  '[response load_artifacts: {"artifact_names":["report.md"]}]',
  'It says: Q3: sales grew 12%.',
];

it('BT-1, BT-2: saves report.md to disk and reads it back through load_artifacts; a second run makes version 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adkit-example-artifacts-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));

  expect(await runExample(main, { cwd: dir })).toEqual({ stdout: output(0), stderr: [], exitCode: 0 });
  expect(await runExample(main, { cwd: dir })).toEqual({ stdout: output(1), stderr: [], exitCode: 0 });

  const store = new FileSystemArtifactService({ root: join(dir, 'artifacts') });
  const key = { appName: 'reports', userId: 'ada', sessionId: 's1', filename: 'report.md' };
  expect(await store.listVersions(key)).toEqual([0, 1]);
  expect(await store.loadArtifact({ ...key, version: 0 })).toEqual({ text: 'Q3: sales grew 12%.' });
});

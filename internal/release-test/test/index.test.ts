import { expect, it } from 'vitest';
import * as api from '../src/index.js';

it('pins the exports of @adkit/release-test', () => {
  expect(Object.keys(api).sort()).toEqual([
    'CommandError',
    'ensureReleaseTools',
    'expandFilePattern',
    'importedPackages',
    'installedFootprint',
    'isCommandError',
    'manifestProblems',
    'markdownSection',
    'npmInstallArgs',
    'publishablePackages',
    'runCommand',
    'startLocalRegistry',
    'throwawayCopy',
    'upstreamRegistry',
  ]);
});

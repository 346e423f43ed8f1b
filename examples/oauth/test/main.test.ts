// The example runs as `node dist/main.js` would, offline: the tool pauses for consent (a long-running
// adk_request_credential call with the provider's URL), the user consents on the provider's pages,
// the reply resumes the call with the user's token. (@adkit/auth's README test checks that its
// README shows src/main.ts and this output.)
import { runExample } from '@adkit/test-support';
import { expect, it } from 'vitest';

it('AU-2..AU-5, AU-7: pauses for consent, then the call runs with the user\'s token', async () => {
  const { stdout, stderr, exitCode } = await runExample(new URL('../src/main.ts', import.meta.url));
  expect(stdout).toEqual([
    '[call list_events({})]',
    '[response list_events: {"status":"Pending User Authorization."}]',
    expect.stringMatching(/^\[call adk_request_credential\(\{"functionCallId":"…","authConfig":\{"authScheme":\{"type":"openIdConnect",.*"exchangedAuthCredential":\{"authType":"openIdConnect","oauth2":\{"clientId":"calendar-app","authUri":"…","state":"…","redirectUri":"http:\/\/127\.0\.0\.1:9\/oauth\/callback"\}\},"credentialKey":"adk_openIdConnect_[0-9a-f]{32}"\},"callDigest":"…","formatVersion":1\}\)\]$/),
    expect.stringMatching(/^send the user to: http:\/\/127\.0\.0\.1:\d+\/auth\?…$/),
    '[response list_events: {"owner":"ann","events":["09:00 standup"]}]',
    'You have a standup at nine.',
  ]);
  expect(stdout.join('\n')).not.toContain('example-secret');
  expect({ stderr: stderr.filter((line) => !line.startsWith('oidc-provider')), exitCode }).toEqual({ stderr: [], exitCode: 0 });
});

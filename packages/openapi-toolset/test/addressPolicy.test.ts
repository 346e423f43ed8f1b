// The address policy checks each host before the request and again when the connection is made,
// on the answer the connection uses: a DNS answer that changes in between (rebinding) is refused.
// DNS answers come from a resolver the test gives (no real name is looked up); nothing connects
// to a refused address.
import { createServer } from 'node:http';
import { fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { addressPolicy } from '../src/addressPolicy.js';

describe('addressPolicy', () => {
  it('DNS rebinding: a public answer at the check, a loopback one at connect time, is refused before connecting', async () => {
    const answers = [['93.184.215.14'], ['127.0.0.1']];
    const asked: string[] = [];
    const policy = addressPolicy(undefined, async (hostname) => {
      asked.push(hostname);
      return answers.shift() ?? ['127.0.0.1'];
    });
    await policy.check('rebind.test');
    const error = await fetch('http://rebind.test:8080/x', { dispatcher: policy.dispatcher() }).catch((e: unknown) => e);
    expect((error as Error & { cause: Error & { code: string } }).cause.message).toBe(
      'requests to rebind.test (127.0.0.1) are refused: it is a loopback address, and the app did not allow it (allowPrivateAddresses)',
    );
    expect((error as { cause: { code: string } }).cause.code).toBe('ADDRESS_REFUSED');
    expect(asked).toEqual(['rebind.test', 'rebind.test']);
    await policy.close();
  });

  it('a name with one private address among public ones is refused', async () => {
    const policy = addressPolicy(undefined, async () => ['93.184.215.14', '10.0.0.7']);
    await expect(policy.check('mixed.test')).rejects.toThrow('requests to mixed.test (10.0.0.7) are refused: it is a private address');
  });

  it('allowed ranges pass at the check and at connect time', async () => {
    const policy = addressPolicy(['127.0.0.0/8'], async () => ['127.0.0.1']);
    await expect(policy.check('local.test')).resolves.toBeUndefined();
    const server = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://local.test:${(server.address() as { port: number }).port}/`, { dispatcher: policy.dispatcher() });
      expect(await response.text()).toBe('hello');
    } finally {
      await policy.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

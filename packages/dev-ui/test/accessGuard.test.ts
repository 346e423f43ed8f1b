// The access rules: which addresses count as loopback, the token check, the Host check against
// DNS rebinding. Bad input tried: look-alike hosts (127.0.0.1.evil.example, localhost.evil), the
// right host on the wrong port, IPv4-mapped IPv6, tokens of other lengths and empty ones.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackHostHeader, newToken, tokenMatches } from '../src/accessGuard.js';

describe('accessGuard', () => {
  it('knows the loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', '10.0.0.1', 'example.com', 'localhost.evil', '128.0.0.1', '::ffff:10.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('accepts only a loopback Host header with the server\'s port', () => {
    for (const header of ['127.0.0.1:8000', 'localhost:8000', '[::1]:8000', 'LOCALHOST:8000'])
      expect(isLoopbackHostHeader(header, 8000), header).toBe(true);
    for (const header of [undefined, '', 'evil.example:8000', '127.0.0.1.evil.example:8000', '127.0.0.1:8001', 'localhost', '[::1]', 'a:b:c'])
      expect(isLoopbackHostHeader(header, 8000), String(header)).toBe(false);
    expect(isLoopbackHostHeader('localhost', 80)).toBe(true);
  });

  it('compares tokens whatever their lengths, and makes fresh random ones', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    for (const wrong of [undefined, '', token.slice(0, -1), `${token}x`, token.toUpperCase(), 'x'.repeat(10_000)])
      expect(tokenMatches(wrong, token)).toBe(false);
  });
});

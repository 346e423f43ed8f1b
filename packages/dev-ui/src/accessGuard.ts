import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** The header a page (or a script) may send the token in; `?token=` in the URL works too. */
export const TOKEN_HEADER = 'x-adkit-dev-ui-token';

/** Whether the address only this machine can reach: `localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1' || /^::ffff:127\./i.test(bare);
  return false;
}

/** A fresh random token (32 bytes, base64url). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether `given` is the token, compared in constant time: both are hashed first, so neither
 * their contents nor their lengths leak through timing.
 */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether a request's `Host` header names this loopback server (`127.0.0.1:PORT`, `localhost:PORT`,
 * `[::1]:PORT`). Checked when no token is required, so a web page whose domain was re-pointed at
 * 127.0.0.1 (DNS rebinding) cannot drive the agents.
 */
export function isLoopbackHostHeader(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim());
  if (!match) return false;
  const [, host, hostPort] = match;
  return isLoopbackHost(host!.toLowerCase()) && (hostPort === undefined ? port === 80 : Number(hostPort) === port);
}

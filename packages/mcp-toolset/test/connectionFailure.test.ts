// MCP-4's classification of errors: which failures reconnect, and whether the request may be
// sent again. Bad input tried: nulls, strings, cyclic causes, look-alike messages.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { connectionFailure } from '../src/connectionFailure.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('connectionFailure (MCP-4)', () => {
  it('unsent: closed transport, refused connection, a session the server forgot', () => {
    expect(connectionFailure(new Error('Not connected'))).toBe('unsent');
    expect(connectionFailure(new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') }))).toBe('unsent');
    expect(connectionFailure(new StreamableHTTPError(404, 'Error POSTing to endpoint: Session not found'))).toBe('unsent');
    expect(connectionFailure(new StreamableHTTPError(400, 'Error POSTing to endpoint: Bad Request: No valid session ID provided'))).toBe('unsent');
  });

  it('lost: the connection closed or reset with the request out', () => {
    expect(connectionFailure(new McpError(-32000, 'Connection closed'))).toBe('lost');
    expect(connectionFailure(withCode('write EPIPE', 'EPIPE'))).toBe('lost');
    expect(connectionFailure(new TypeError('fetch failed', { cause: withCode('other side closed', 'UND_ERR_SOCKET') }))).toBe('lost');
  });

  it('anything else is not a connection failure', () => {
    expect(connectionFailure(new McpError(-32001, 'Request timed out'))).toBeUndefined();
    expect(connectionFailure(new McpError(-32602, 'Connection closed? no: invalid params'))).toBeUndefined();
    expect(connectionFailure(new StreamableHTTPError(500, 'Error POSTing to endpoint: session broke'))).toBeUndefined();
    expect(connectionFailure(new Error('Not connected yet, but soon'))).toBeUndefined();
    for (const value of [null, undefined, 'Not connected', 42, {}]) expect(connectionFailure(value)).toBeUndefined();
    const cyclic: { message: string; cause?: unknown } = { message: 'loop' };
    cyclic.cause = cyclic;
    expect(connectionFailure(cyclic)).toBeUndefined();
  });
});

/**
 * How a failed request relates to the connection (MCP-4):
 * - `unsent`: the request never ran — the transport was already closed, the server refused the
 *   connection, or the server no longer knows the session (HTTP 404, or 400 naming the session);
 *   reconnecting and sending it again is safe;
 * - `lost`: the connection broke while the request was out (the child exited, the socket reset);
 *   the server may have run it;
 * - `undefined`: not a connection failure (a protocol error, a timeout): reconnecting won't help.
 */
export type ConnectionFailure = 'unsent' | 'lost' | undefined;

const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTCONN']);
const LOST_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'UND_ERR_SOCKET']);

/** Classifies an error from the MCP SDK (or a transport) for MCP-4's reconnect-and-retry. */
export function connectionFailure(error: unknown): ConnectionFailure {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (typeof current !== 'object') return undefined;
    const { message, code, name } = current as { message?: unknown; code?: unknown; name?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (text === 'Not connected') return 'unsent';
    // McpError ConnectionClosed (-32000): the transport closed with the request out.
    if (name === 'McpError' && code === -32000 && /Connection closed/.test(text)) return 'lost';
    // StreamableHTTPError: the HTTP status is the code.
    if (text.startsWith('Streamable HTTP error:') && typeof code === 'number') {
      if (code === 404) return 'unsent';
      if (code === 400 && /session/i.test(text)) return 'unsent';
      return undefined;
    }
    if (typeof code === 'string') {
      if (UNSENT_CODES.has(code)) return 'unsent';
      if (LOST_CODES.has(code)) return 'lost';
    }
    // undici's "fetch failed" carries the socket error as its cause.
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

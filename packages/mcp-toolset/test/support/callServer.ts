// An SDK-built server for the call tests: a tool that answers, one that never does (and records
// the cancellation), one reporting progress, media, structured content, an echo.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** What the server saw. */
export interface Observed {
  cancelled: string[];
  calls: string[];
}

export const PNG = Buffer.from('PNG: fake image bytes').toString('base64');
export const WAV = Buffer.from('RIFF fake audio bytes').toString('base64');

export function callServer(observed: Observed): McpServer {
  const server = new McpServer({ name: 'calls', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  server.registerTool('ping', { description: 'Answers pong.' }, async () => {
    observed.calls.push('ping');
    return text('pong');
  });
  server.registerTool('hang', { description: 'Never answers.' }, async (extra) => {
    observed.calls.push('hang');
    await new Promise<void>((resolve) =>
      extra.signal.addEventListener('abort', () => {
        observed.cancelled.push(String(extra.signal.reason));
        resolve();
      }),
    );
    return text('too late');
  });
  server.registerTool('steps', { description: 'Reports progress.' }, async (extra) => {
    const token = extra._meta?.progressToken;
    const report = async (progress: number, message?: string) => {
      if (token !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total: 3, ...(message ? { message } : {}) },
        });
    };
    await report(1);
    await report(2, 'two of three');
    await report(7, 'y'.repeat(5_000)); // past the total, and long
    return text('done');
  });
  server.registerTool('media', { description: 'An image and a sound.' }, async () => ({
    content: [
      { type: 'text', text: 'Here:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: WAV, mimeType: 'audio/wav' },
    ],
  }));
  server.registerTool(
    'structured',
    { description: 'Structured content.', outputSchema: { items: z.array(z.unknown()) } },
    async () => {
      const structured = JSON.parse(
        `{"__proto__":{"polluted":true},"items":[{"type":"image","mimeType":"image/png","data":"${PNG}"},{"constructor":"x"}]}`,
      ) as Record<string, unknown>;
      return { content: [{ type: 'text', text: 'see structuredContent' }], structuredContent: structured };
    },
  );
  server.registerTool('echo', { description: 'Echoes.', inputSchema: { value: z.string() } }, async ({ value }) => {
    observed.calls.push(`echo ${value}`);
    return text(value);
  });
  return server;
}

import { setTimeout as sleep } from 'node:timers/promises';
import { mcpToolset, type McpToolset } from '@adkit/mcp-toolset';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const SKIES = ['sunny', 'cloudy', 'showers', 'windy', 'clear'];
const BASE: Record<string, number> = { lisbon: 21, tokyo: 14, oslo: -2, paris: 15 };

/**
 * A small MCP server built with the MCP SDK: `get_forecast` answers with a forecast and reports
 * progress (one notification a day) while it "computes".
 */
export function weatherMcpServer(): McpServer {
  const server = new McpServer({ name: 'demo-weather', version: '1.0.0' });
  server.registerTool(
    'get_forecast',
    {
      description: 'The weather forecast for a city, for the next 1 to 5 days.',
      inputSchema: { city: z.string(), days: z.number().int().min(1).max(5) },
    },
    async ({ city, days }, extra) => {
      const token = extra._meta?.progressToken;
      const base = Object.hasOwn(BASE, city.toLowerCase()) ? BASE[city.toLowerCase()]! : 18;
      const forecast: string[] = [];
      for (let day = 1; day <= days; day++) {
        await sleep(40, undefined, { signal: extra.signal });
        forecast.push(`day ${day}: ${SKIES[(day + city.length) % SKIES.length]}, ${base + ((day * 3) % 5) - 2}°C`);
        if (token !== undefined)
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: day, total: days, message: `day ${day} of ${days}` } });
      }
      return { content: [{ type: 'text', text: `${city}: ${forecast.join('; ')}` }] };
    },
  );
  return server;
}

/** The server as a toolset, over the SDK's in-memory transport (a new linked pair per connection). */
export function weatherToolset(): McpToolset {
  return mcpToolset(
    {
      transport: async () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        await weatherMcpServer().connect(server);
        return client;
      },
    },
    { name: 'demo_weather' },
  );
}

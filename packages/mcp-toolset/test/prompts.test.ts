// mcpPrompts: list and get prompts for apps, over the real server-everything (sharing the
// toolset's process) and SDK-built servers. Bad input tried: a prompt of 100 MB, a non-string
// argument, a missing required argument, an unknown prompt, a server without prompts, a cursor loop,
// a wrapped toolset.
import { isAdkitError } from '@adkit/flow';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { withConfirmation } from '@adkit/confirmation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpPrompts, mcpToolset, type McpPrompts, type McpToolset } from '../src/index.js';
import { PNG } from './support/callServer.js';
import { EVERYTHING, childProcesses, nodeServer } from './support/realServers.js';
import { inMemoryServer } from './support/sdkServers.js';

describe('mcpPrompts over server-everything (shared connection)', { timeout: 20_000 }, () => {
  let toolset: McpToolset;
  let prompts: McpPrompts;
  beforeAll(() => {
    toolset = mcpToolset(nodeServer(EVERYTHING, ['stdio']));
    prompts = mcpPrompts(toolset);
  });
  afterAll(() => toolset.close());

  it('lists every prompt with its arguments, over the toolset\'s one process', async () => {
    const listed = await prompts.list();
    expect(listed.map((prompt) => prompt.name)).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
    expect(listed.find((prompt) => prompt.name === 'args-prompt')).toEqual({
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false }, // zod's .optional() drops the server's description
      ],
    });
    await toolset.tools({} as never);
    expect(childProcesses(EVERYTHING)).toHaveLength(1);
  });

  it('gets a prompt filled in with its arguments, as SDK messages and as adkit contents', async () => {
    const prompt = await prompts.get('args-prompt', { city: 'Lisbon', state: 'PT' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Lisbon, PT?" } }]);
    expect(prompt.contents).toEqual([{ role: 'user', parts: [{ text: "What's weather in Lisbon, PT?" }] }]);
  });

  it('an embedded resource becomes its label and text', async () => {
    const { contents } = await prompts.get('resource-prompt', { resourceType: 'Text', resourceId: '2' });
    expect(contents[1]!.parts![0]!.text).toMatch(/^\[MCP embedded resource: uri="demo:\/\/resource\/dynamic\/text\/2", mimeType="text\/plain"\]\nResource 2: /);
  });

  it('a missing required argument and an unknown prompt are clear errors from the server', async () => {
    await expect(prompts.get('args-prompt', {})).rejects.toMatchObject({ code: 'MCP_PROMPT_FAILED', message: expect.stringContaining('failed to get MCP prompt "args-prompt"') });
    await expect(prompts.get('nope')).rejects.toMatchObject({ code: 'MCP_PROMPT_FAILED', message: expect.stringMatching(/Prompt nope not found/) });
  });

  it('a non-string argument is refused before anything is sent', async () => {
    await expect(prompts.get('args-prompt', { city: 3 } as never)).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      message: 'mcpPrompts "mcp_prompts": argument "city" of prompt "args-prompt" must be a string, got number.',
    });
  });
});

describe('mcpPrompts on SDK-built servers', () => {
  function promptServer(): McpServer {
    const server = new McpServer({ name: 'prompts', version: '1.0.0' });
    server.registerPrompt('huge', { description: '100 MB.' }, async () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(100 * 1024 * 1024) } }],
    }));
    server.registerPrompt('mixed', { argsSchema: { topic: z.string() } }, async ({ topic }) => ({
      description: `About ${topic}`,
      messages: [
        { role: 'user', content: { type: 'text', text: `Tell me about ${topic}` } },
        { role: 'assistant', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      ],
    }));
    return server;
  }

  it('a prompt of 100 MB is refused with MCP_PROMPT_TOO_LARGE naming the option', async () => {
    const prompts = mcpPrompts(inMemoryServer(promptServer));
    const error = await prompts.get('huge').catch((thrown: unknown) => thrown);
    expect(isAdkitError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'MCP_PROMPT_TOO_LARGE',
      message: `mcpPrompts "mcp_prompts": prompt "huge" has ${100 * 1024 * 1024} characters, more than maxPromptChars (4000000); raise the option if it is expected.`,
    });
    await prompts.close();
  });

  it('assistant messages become model contents, images inline data; the description is kept', async () => {
    const prompts = mcpPrompts(inMemoryServer(promptServer));
    expect(await prompts.get('mixed', { topic: 'tides' })).toMatchObject({
      description: 'About tides',
      contents: [
        { role: 'user', parts: [{ text: 'Tell me about tides' }] },
        { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] },
      ],
    });
    await prompts.close();
  });

  it('a server without prompts lists none; a looping cursor is an error', async () => {
    const bare = new McpServer({ name: 'bare', version: '1.0.0' });
    bare.registerTool('t', {}, async () => ({ content: [] }));
    const none = mcpPrompts(inMemoryServer(() => bare));
    expect(await none.list()).toEqual([]);
    await none.close();
    const looping = mcpPrompts(
      inMemoryServer(() => {
        const server = new Server({ name: 'loop', version: '1.0.0' }, { capabilities: { prompts: {} } });
        server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'p' }], nextCursor: 'again' }));
        return server;
      }),
    );
    await expect(looping.list()).rejects.toMatchObject({ code: 'MCP_PROMPT_FAILED', message: expect.stringContaining('repeated a cursor') });
    await looping.close();
  });

  it('a wrapped toolset is refused with the fix', () => {
    const toolset = mcpToolset(inMemoryServer(promptServer));
    expect(() => mcpPrompts(withConfirmation(toolset, { require: true }) as never)).toThrow(
      'mcpPrompts "mcp_prompts": pass the toolset mcpToolset returned (not a wrapped one), or the server config itself.',
    );
  });
});

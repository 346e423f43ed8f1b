import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/mcp-toolset exports', () => {
  it('pins the public API (a new export is an API decision)', () => {
    expect(Object.keys(api).sort()).toEqual([
      'McpPrompts',
      'McpResources',
      'McpTool',
      'McpToolset',
      'TOOL_TRACE_CONTEXT',
      'createElicitationReply',
      'createTaskCheck',
      'defaultInlineMedia',
      'mcpPrompts',
      'mcpResources',
      'mcpToolset',
      'pendingElicitations',
      'pendingMcpTasks',
    ]);
  });
});

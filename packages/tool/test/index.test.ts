import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/tool exports', () => {
  it('pins the public API (a new export is an API decision)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'BaseTool',
        'BaseToolset',
        'FUNCTION_NAME_PATTERN',
        'LONG_RUNNING_NOTE',
        'MAX_SCHEMA_PROBLEMS',
        'ToolError',
        'allowedTools',
        'assertToolName',
        'assertToolOptions',
        'compileSchema',
        'confirmationGate',
        'confirmationHint',
        'describeFields',
        'exampleTool',
        'exitLoopTool',
        'filterToolset',
        'formatSchemaErrors',
        'formatSchemaPath',
        'invalidArgumentsError',
        'isObjectSchema',
        'isRequestProcessor',
        'isRunnableTool',
        'isStreamingTool',
        'isToolError',
        'packTool',
        'prefixTool',
        'prefixToolset',
        'toFunctionName',
        'withLongRunningNote',
      ].sort(),
    );
  });

  it('re-exports the capability guards and packTool from @adkit/flow unchanged', async () => {
    const flow = await import('@adkit/flow');
    expect(api.isRunnableTool).toBe(flow.isRunnableTool);
    expect(api.isStreamingTool).toBe(flow.isStreamingTool);
    expect(api.isRequestProcessor).toBe(flow.isRequestProcessor);
    expect(api.packTool).toBe(flow.packTool);
  });
});

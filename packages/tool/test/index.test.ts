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
        'LazySchema',
        'MAX_SCHEMA_PROBLEMS',
        'SUBSCHEMA_KEYWORDS',
        'ToolError',
        'allowedTools',
        'assertToolName',
        'assertToolOptions',
        'checkSchemaSyntax',
        'compileSchema',
        'confirmationGate',
        'confirmationHint',
        'describeFields',
        'exampleTool',
        'exitLoop',
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
        'registerTool',
        'toFunctionName',
        'withLongRunningNote',
        'wrapTool',
        'wrapToolset',
      ].sort(),
    );
  });

  it('re-exports the capability guards, packTool, registerTool and the schema helpers from @adkit/flow unchanged', async () => {
    const flow = await import('@adkit/flow');
    expect(api.isRunnableTool).toBe(flow.isRunnableTool);
    expect(api.isStreamingTool).toBe(flow.isStreamingTool);
    expect(api.isRequestProcessor).toBe(flow.isRequestProcessor);
    expect(api.packTool).toBe(flow.packTool);
    expect(api.registerTool).toBe(flow.registerTool);
    // One home for schema compilation and error formatting (#9): flow's, shared with its output schema.
    expect(api.compileSchema).toBe(flow.compileSchema);
    expect(api.LazySchema).toBe(flow.LazySchema);
    expect(api.checkSchemaSyntax).toBe(flow.checkSchemaSyntax);
    expect(api.formatSchemaErrors).toBe(flow.formatSchemaErrors);
    expect(api.formatSchemaPath).toBe(flow.formatSchemaPath);
    expect(api.MAX_SCHEMA_PROBLEMS).toBe(flow.MAX_SCHEMA_PROBLEMS);
    expect(api.SUBSCHEMA_KEYWORDS).toBe(flow.SUBSCHEMA_KEYWORDS);
  });
});

it('#31: the ready-made exit_loop tool is exitLoop; exitLoopTool is its deprecated old name, the same tool', () => {
  expect(api.exitLoopTool).toBe(api.exitLoop);
  expect(api.exitLoop.name).toBe('exit_loop');
});

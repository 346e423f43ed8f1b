// BaseTool: construction checks (bad input tried: an invalid name, a missing description, a zero
// timeout), FT-3's long-running note, and registration through processRequest (PK-1).
import { ConfigError, createLlmRequest, getFunctionResponses, LlmAgent, type FunctionDeclaration, type ToolContext } from '@adkit/flow';
import { createToolContext, functionCallResponse, ScriptedModel, textResponse } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { BaseTool, LONG_RUNNING_NOTE, withLongRunningNote, type ToolOptions } from '../src/index.js';
import { runOnce } from './support.js';

class Echo extends BaseTool {
  constructor(options: Partial<ToolOptions> = {}) {
    super({ name: 'echo', description: 'Echoes its input.', ...options });
  }
  declaration(): FunctionDeclaration {
    return { name: this.name, description: this.declaredDescription(), parametersJsonSchema: { type: 'object' } };
  }
  async run(ctx: ToolContext, args: Record<string, unknown>) {
    ctx.state.set('echoed', args.text);
    return { echo: args.text };
  }
}

describe('BaseTool', () => {
  it('checks its options at construction, naming the subclass and the fix', () => {
    expect(() => new Echo({ name: 'echo tool' })).toThrow(ConfigError);
    expect(() => new Echo({ name: 'echo tool' })).toThrow(
      'Echo "echo tool": name must match /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/ (a letter or underscore, then letters, digits, "_", "." or "-"; at most 64 characters) so every model provider accepts it; rename it, e.g. "echo_tool".',
    );
    expect(() => new Echo({ description: undefined as unknown as string })).toThrow(
      'Echo "echo": description must be a string telling the model what the tool does, got undefined.',
    );
    expect(() => new Echo({ timeoutMs: 0 })).toThrow(
      'Echo "echo": timeoutMs must be a positive number of milliseconds (e.g. 30000), got 0; leave it out for no per-tool limit.',
    );
  });

  it('#23 point 7: idempotent is kept on the tool (default false), and a non-boolean is refused', () => {
    expect(new Echo({ idempotent: true }).idempotent).toBe(true);
    expect(new Echo().idempotent).toBe(false);
    expect(() => new Echo({ idempotent: 1 as unknown as boolean })).toThrow(
      'Echo "echo": idempotent must be true or false, got number; leave it out unless running a call twice is harmless.',
    );
  });

  it('FT-3: declaredDescription adds the long-running note', () => {
    expect(new Echo().declaration().description).toBe('Echoes its input.');
    expect(new Echo({ isLongRunning: true }).declaration().description).toBe(`Echoes its input.\n\n${LONG_RUNNING_NOTE}`);
    expect(withLongRunningNote('')).toBe(LONG_RUNNING_NOTE);
    expect(LONG_RUNNING_NOTE).toBe(
      'NOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.',
    );
  });

  it('PK-1: processRequest registers the tool; it runs through the flow', async () => {
    const echo = new Echo({ timeoutMs: 1000 });
    const request = createLlmRequest();
    await echo.processRequest(createToolContext(), request);
    expect(request.tools.echo).toBe(echo);
    expect(request.config.tools).toEqual([{ functionDeclarations: [echo.declaration()] }]);

    const model = new ScriptedModel([functionCallResponse([{ name: 'echo', args: { text: 'hi' } }]), textResponse('done')]);
    const { events, runner } = await runOnce(new LlmAgent({ name: 'a', model, tools: [echo] }));
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ echo: 'hi' });
    expect((await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' }))!.state).toEqual({ echoed: 'hi' });
  });

  // #24: registering is synchronous, so the flow waits no microtask turn per tool per step; a
  // refusal is still a rejection, as from the async method it was.
  it('PK-1: processRequest registers at once and returns nothing; a duplicate is a rejected promise, the table unchanged', async () => {
    const echo = new Echo();
    const request = createLlmRequest();
    expect(echo.processRequest(createToolContext(), request)).toBeUndefined();
    expect(request.tools.echo).toBe(echo);
    const again = echo.processRequest(createToolContext(), request);
    expect(again).toBeInstanceOf(Promise);
    await expect(again).rejects.toMatchObject({ code: 'DUPLICATE_TOOL' });
    expect(Object.keys(request.tools)).toEqual(['echo']);
    expect(request.config.tools).toEqual([{ functionDeclarations: [echo.declaration()] }]);
  });

  it('a subclass whose processRequest awaits something is waited for before the model is called', async () => {
    class Late extends Echo {
      override async processRequest(...[ctx, request]: Parameters<BaseTool['processRequest']>): Promise<void> {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await super.processRequest(ctx, request);
      }
    }
    const model = new ScriptedModel([functionCallResponse([{ name: 'echo', args: { text: 'late' } }]), textResponse('done')]);
    const { events } = await runOnce(new LlmAgent({ name: 'a', model, tools: [new Late()] }));
    expect(getFunctionResponses(events[1]!)[0]!.response).toEqual({ echo: 'late' });
  });
});

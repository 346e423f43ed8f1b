import { isAdkitError } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/agent-tool exports', () => {
  it('exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(['agentTool']);
  });

  it('refuses what is not an agent with a ConfigError (STYLE rule 5: checked by code), naming what it got', () => {
    expect(() => api.agentTool({ name: 'x' } as never)).toThrow('agentTool: expected an agent (LlmAgent, SequentialAgent, …), got object.');
    for (const [notAnAgent, got] of [[{ name: 'x' }, 'object'], [null, 'null'], ['planner', 'string']] as const) {
      let thrown: unknown;
      try {
        api.agentTool(notAnAgent as never);
      } catch (error) {
        thrown = error;
      }
      expect(isAdkitError(thrown) && thrown.code).toBe('INVALID_CONFIG');
      expect((thrown as Error).message).toBe(`agentTool: expected an agent (LlmAgent, SequentialAgent, …), got ${got}.`);
    }
  });
});

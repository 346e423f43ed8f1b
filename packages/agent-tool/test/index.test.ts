import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('@adkit/agent-tool exports', () => {
  it('exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(['agentTool']);
  });

  it('refuses what is not an agent, naming what it got', () => {
    expect(() => api.agentTool({ name: 'x' } as never)).toThrow('agentTool: expected an agent (LlmAgent, SequentialAgent, …), got object.');
  });
});

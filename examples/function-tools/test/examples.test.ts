// Every example runs offline and ends as it should. (@adkit/function-tool's README test checks
// the same files line by line, and that the README shows them verbatim.)
import { describe, expect, it } from 'vitest';
import { longRunningExample } from '../src/longRunning.js';
import { stateAndActionsExample } from '../src/stateAndActions.js';
import { streamingExample } from '../src/streaming.js';
import { weatherExample } from '../src/weather.js';

describe('examples/function-tools', () => {
  it('weather: the tool answers and the model replies', async () => {
    expect((await weatherExample()).at(-1)).toBe('weather: It is 21 °C in Paris.');
  });

  it('long-running: the run pauses, then the function response resumes it', async () => {
    const lines = await longRunningExample();
    expect(lines[0]).toMatch(/\(waiting for call-1\)$/);
    expect(lines.at(-1)).toBe('helpdesk: Ticket T-7 is resolved: the printer was replaced.');
  });

  it('streaming: progress for each chunk, then the joined result', async () => {
    const lines = await streamingExample();
    expect(lines.filter((line) => line.startsWith('progress: '))).toHaveLength(3);
    expect(lines.at(-1)).toBe('launcher: Liftoff!');
  });

  it('state and actions: the cart is saved and the turn ends without another model call', async () => {
    const { lines, state } = await stateAndActionsExample();
    expect(lines).toHaveLength(2);
    expect(state).toEqual({ cart: { apple: 3 } });
  });
});

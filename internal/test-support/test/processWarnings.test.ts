import { expect, it } from 'vitest';
import { processWarnings } from '../src/index.js';

it('collects the warnings emitted while the work runs, and stops listening after', async () => {
  const before = process.listenerCount('warning');
  const warnings = await processWarnings(async () => void process.emitWarning('listener leak', 'MaxListenersExceededWarning'));
  expect(warnings.map((w) => [w.name, w.message])).toEqual([['MaxListenersExceededWarning', 'listener leak']]);
  expect(process.listenerCount('warning')).toBe(before);
});

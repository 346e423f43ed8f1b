// processWarnings collects warnings and keeps them out of the test output (#23 point 20): the
// warning this test provokes on purpose must never print as a real-looking leak report.
import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { processWarnings } from '../src/index.js';

it('collects the warnings emitted while the work runs, prints none of them, and restores everything after', async () => {
  const before = process.listenerCount('warning');
  const emitWarning = process.emitWarning;
  // Node prints a warning from its own `warning` listener; a listener of ours sees what would print.
  const printed: Error[] = [];
  const wouldPrint = (warning: Error) => printed.push(warning);
  process.on('warning', wouldPrint);
  try {
    const warnings = await processWarnings(async () => {
      process.emitWarning('listener leak', 'MaxListenersExceededWarning');
      process.emitWarning('plain');
      process.emitWarning('coded', { type: 'DeprecationWarning', code: 'DEP0' });
      // A real leak report, as Node's own emitters make it.
      const emitter = new EventEmitter();
      for (let i = 0; i < 11; i++) emitter.on('x', () => {});
      const signal = new AbortController().signal;
      for (let i = 0; i < 11; i++) signal.addEventListener('abort', () => {});
    });
    expect(warnings.map((w) => [w.name, w.message.split(' ').slice(0, 3).join(' ')])).toEqual([
      ['MaxListenersExceededWarning', 'listener leak'],
      ['Warning', 'plain'],
      ['DeprecationWarning', 'coded'],
      ['MaxListenersExceededWarning', 'Possible EventEmitter memory'],
      ['MaxListenersExceededWarning', 'Possible EventTarget memory'],
    ]);
    expect((warnings[2] as Error & { code?: string }).code).toBe('DEP0');
    expect(printed).toEqual([]);
  } finally {
    process.off('warning', wouldPrint);
  }
  expect(process.emitWarning).toBe(emitWarning);
  expect(process.listenerCount('warning')).toBe(before);
});

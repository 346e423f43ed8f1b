// HC-2: the shared confirmation gate (used by function tools and available to any tool author).
import { createToolContext } from '@adkit/flow/testing';
import { describe, expect, it } from 'vitest';
import { confirmationGate, confirmationHint, isToolError } from '../src/index.js';

describe('confirmationGate (HC-2)', () => {
  it('HC-2: passes when nothing is required and nothing was answered', async () => {
    const ctx = createToolContext();
    await expect(confirmationGate(ctx, 'pay', false)).resolves.toBeUndefined();
    await expect(confirmationGate(ctx, 'pay', () => Promise.resolve(false))).resolves.toBeUndefined();
    expect(ctx.actions.requestedToolConfirmations).toBeUndefined();
  });

  it('HC-2/HC-1: requires confirmation: records the request with the hint and fails', async () => {
    const ctx = createToolContext({ functionCallId: 'fc-1', functionCall: { id: 'fc-1', name: 'pay', args: { to: 'bob', amount: 40 } } });
    const error = await confirmationGate(ctx, 'pay', true).catch((e: unknown) => e);
    expect(isToolError(error) && [error.message, error.code, error.toolName]).toEqual([
      'error tool "pay" requires confirmation, please approve or reject',
      'CONFIRMATION_REQUIRED',
      'pay',
    ]);
    expect(ctx.actions.requestedToolConfirmations).toEqual({ 'fc-1': { hint: 'Approve "pay" with {"to":"bob","amount":40}?', confirmed: false } });
    expect(ctx.actions.skipSummarization).toBe(true);
  });

  it('#10: the hint is written for the person approving; long or odd arguments stay readable', () => {
    expect(confirmationHint('pay')).toBe('Approve "pay"?');
    expect(confirmationHint('pay', {})).toBe('Approve "pay"?');
    const long = confirmationHint('upload', { body: 'x'.repeat(10_000) });
    expect(long).toMatch(/^Approve "upload" with \{"body":"x+…\?$/);
    expect(long.length).toBeLessThan(340);
    expect(confirmationHint('odd', { n: 10n } as never)).toBe('Approve "odd" with {…}?');
  });

  it('HC-2: on resume, the requirement is not asked again; a rejection fails', async () => {
    let asked = 0;
    const required = () => {
      asked++;
      return true;
    };
    await expect(confirmationGate(createToolContext({ toolConfirmation: { confirmed: true } }), 'pay', required)).resolves.toBeUndefined();
    const error = await confirmationGate(createToolContext({ toolConfirmation: { confirmed: false } }), 'pay', required).catch((e: unknown) => e);
    expect(isToolError(error) && [error.message, error.code]).toEqual(['error tool "pay" call is rejected', 'CALL_REJECTED']);
    expect(asked).toBe(0);
  });
});

// The public surface of @adkit/otel: every export is an API decision.
import { expect, it } from 'vitest';
import * as otel from '../src/index.js';

it('exports exactly the plugin factory and its constants', () => {
  expect(Object.keys(otel).sort()).toEqual(['DEFAULT_MAX_CONTENT_LENGTH', 'PAUSED_SPANS_STATE_KEY', 'otelPlugin']);
  expect(otel.PAUSED_SPANS_STATE_KEY).toBe('otel:pausedSpans');
});

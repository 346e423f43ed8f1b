// Runs the README example (streamToolCall.ts) against the OpenAI API, or any OpenAI-compatible
// server: `OPENAI_API_KEY=… pnpm --filter @adkit/example-model-openai start` (add OPENAI_BASE_URL
// for another server). Without a key, openai() refuses with a message that says what to set.
import { isAdkitError } from '@adkit/flow';

try {
  await import('./streamToolCall.js');
} catch (error) {
  if (!isAdkitError(error) || error.code !== 'INVALID_CONFIG') throw error;
  console.error(error.message);
  process.exitCode = 1;
}

// Runs the README example (streamToolCall.ts) against the Gemini API:
// `GEMINI_API_KEY=… pnpm --filter @adkit/example-model-gemini start`. Without a key, gemini()
// refuses with a message that says what to set.
import { isAdkitError } from '@adkit/flow';

try {
  await import('./streamToolCall.js');
} catch (error) {
  if (!isAdkitError(error) || error.code !== 'INVALID_CONFIG') throw error;
  console.error(error.message);
  process.exitCode = 1;
}

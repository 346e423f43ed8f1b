// Runs the README example (googleSearch.ts) against the Gemini API:
// `GEMINI_API_KEY=… pnpm --filter @adkit/example-gemini-tools start`. Without a key, gemini()
// refuses with a message that says what to set.
import { isAdkitError } from '@adkit/flow';

try {
  await import('./googleSearch.js');
} catch (error) {
  if (!isAdkitError(error) || error.code !== 'INVALID_CONFIG') throw error;
  console.error(error.message);
  process.exitCode = 1;
}

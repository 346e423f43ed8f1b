// Runs streamToolCall.ts on the real API: `GEMINI_API_KEY=… npm run example -- model-gemini`, or offline
// on the recorded API traffic in replay.json: `npm run example -- model-gemini --offline`. Without a
// key, the model refuses with one line that names the variable to set; this adds how to run offline.
import { isAdkitError } from '@adkit/flow';

try {
  await import('./streamToolCall.js');
} catch (error) {
  if (!isAdkitError(error) || error.code !== 'INVALID_CONFIG') throw error;
  console.error(`${error.message} Or run it offline: npm run example -- model-gemini --offline`);
  process.exitCode = 1;
}

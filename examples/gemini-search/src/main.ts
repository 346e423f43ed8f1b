// Runs search.ts on the real API: `GEMINI_API_KEY=… npm run example -- gemini-search`, or offline
// on the recorded API traffic in replay.json: `npm run example -- gemini-search --offline`. Without a
// key, the model refuses with one line that names the variable to set; this adds how to run offline.
import { isAdkitError } from '@adkit/flow';

try {
  await import('./search.js');
} catch (error) {
  if (!isAdkitError(error) || error.code !== 'INVALID_CONFIG') throw error;
  console.error(`${error.message} Or run it offline: npm run example -- gemini-search --offline`);
  process.exitCode = 1;
}

// The API of @adkit/test-support (private, test-only). Every line here is an API decision.
export { codeBlocks } from './codeBlocks.js';
export { expectReadmeExample } from './expectReadmeExample.js';
export { runExample } from './runExample.js';
export type { ExampleRun, RunExampleOptions } from './runExample.js';
export { processWarnings } from './processWarnings.js';

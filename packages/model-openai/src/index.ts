// The public API of @adkit/model-openai. Every line here is an API decision.
export type { OpenAIOptions, OpenAIModel } from './openai.js';
export { openai } from './openai.js';
export type { SchemaReport, SchemaFinding } from './schemaReport.js';
export { schemaReport } from './schemaReport.js';

// The public API of @adkit/model-gemini. Every line here is an API decision.
export type { GeminiOptions, GeminiModel } from './gemini.js';
export { gemini } from './gemini.js';
export type { ServerToolCall } from './responseAggregator.js';
export type { GeminiSchema, GeminiSchemaChange } from './geminiSchema.js';
export { geminiSchema } from './geminiSchema.js';

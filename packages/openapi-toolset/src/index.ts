// The public API of @adkit/openapi-toolset. Every line here is an API decision.
export type { OpenApiToolsetOptions, OperationFilter } from './openApiToolset.js';
export { OpenApiToolset, openApiToolset } from './openApiToolset.js';
export type { OpenApiRequireConfirmation, HeaderSource } from './openApiTool.js';
export { OpenApiTool } from './openApiTool.js';
export type { OperationInfo, HttpMethod } from './operations.js';
export type { AuthOptions, CredentialSource, OAuthClientCredential, StaticCredential } from './auth.js';
export type { ApiResponse } from './sendRequest.js';
export type { SpecSource } from './loadSpec.js';
export { OpenApiSpecError } from './errors.js';

import type { FunctionResponsePart } from './responseParts.js';
/**
 * Content types. Structurally the same JSON shape as `@google/genai`'s, so the Gemini adapter maps
 * them almost one to one and an OpenAI-only user never installs the Gemini SDK.
 */

/** Who produced a content: the user (and tool results), or the model. */
export type Role = 'user' | 'model' | (string & {});

/** A call the model asks the client to make. `id` is set by the model or by the flow (`adk-…`). */
export interface FunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

/** The result of a function call, sent back to the model. */
export interface FunctionResponse {
  id?: string;
  name: string;
  response?: Record<string, unknown>;
  /** Images, audio, PDFs or files beside the JSON response (a tool's `withResponseParts`). */
  parts?: FunctionResponsePart[];
  /** Set on responses that Gemini should not wait for (not used by the flow itself). */
  willContinue?: boolean;
}

/** Bytes carried inline, base64-encoded. */
export interface Blob {
  mimeType?: string;
  /** Base64-encoded bytes. */
  data?: string;
  displayName?: string;
}

/** A file referenced by URI. */
export interface FileData {
  mimeType?: string;
  fileUri?: string;
  displayName?: string;
}

/** Code the model generated for server-side execution (Gemini code execution). */
export interface ExecutableCode {
  language?: string;
  code?: string;
}

/** The result of server-side code execution. */
export interface CodeExecutionResult {
  outcome?: string;
  output?: string;
}

/** One part of a content. Exactly one of the data fields is normally set. */
export interface Part {
  text?: string;
  /** Marks the part as the model's reasoning, not its answer. */
  thought?: boolean;
  /** Opaque signature the model needs back with its own parts (Gemini thought signatures). */
  thoughtSignature?: string;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  inlineData?: Blob;
  fileData?: FileData;
  executableCode?: ExecutableCode;
  codeExecutionResult?: CodeExecutionResult;
  /**
   * Data an adapter or app keeps with the part (genai's `partMetadata`); it is saved with the
   * session but is not content: the OpenAI adapter keeps Responses API item ids here, and the
   * Gemini adapter never sends it.
   */
  partMetadata?: Record<string, unknown>;
}

/** A turn of the conversation. */
export interface Content {
  role?: Role;
  parts?: Part[];
}

/**
 * A JSON Schema object as sent to providers. TypeBox schemas are plain JSON Schema and fit here
 * unchanged.
 */
export type JsonSchema = Record<string, unknown>;

/** What the model is told about a callable function. */
export interface FunctionDeclaration {
  name: string;
  description?: string;
  /** Gemini-style OpenAPI subset schema (genai `Schema`); prefer `parametersJsonSchema`. */
  parameters?: JsonSchema;
  /** Standard JSON Schema for the arguments. */
  parametersJsonSchema?: JsonSchema;
  /** Gemini-style OpenAPI subset schema of the result. */
  response?: JsonSchema;
  /** Standard JSON Schema for the result. */
  responseJsonSchema?: JsonSchema;
}

/**
 * One entry of `GenerateContentConfig.tools`, the same shape as genai's `Tool`: either a group of
 * function declarations or one provider-native tool (`googleSearch`, `codeExecution`, …).
 */
export interface GenaiTool {
  functionDeclarations?: FunctionDeclaration[];
  googleSearch?: Record<string, unknown>;
  googleSearchRetrieval?: Record<string, unknown>;
  codeExecution?: Record<string, unknown>;
  urlContext?: Record<string, unknown>;
  googleMaps?: Record<string, unknown>;
  enterpriseWebSearch?: Record<string, unknown>;
  retrieval?: Record<string, unknown>;
  [nativeTool: string]: unknown;
}

/** How the model may call functions (genai `ToolConfig`). */
export interface ToolConfig {
  functionCallingConfig?: {
    mode?: 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED' | (string & {});
    allowedFunctionNames?: string[];
  };
  [key: string]: unknown;
}

/** Generation settings (genai `GenerateContentConfig`), carried on every request. */
export interface GenerateContentConfig {
  systemInstruction?: Content;
  tools?: GenaiTool[];
  toolConfig?: ToolConfig;
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: JsonSchema;
  responseJsonSchema?: JsonSchema;
  thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number; thinkingLevel?: string };
  labels?: Record<string, string>;
  [key: string]: unknown;
}

/** Builds a user turn from text or parts. */
export function createUserContent(input: string | Part[]): Content {
  return { role: 'user', parts: typeof input === 'string' ? [{ text: input }] : input };
}

/** Builds a model turn from text or parts. */
export function createModelContent(input: string | Part[]): Content {
  return { role: 'model', parts: typeof input === 'string' ? [{ text: input }] : input };
}

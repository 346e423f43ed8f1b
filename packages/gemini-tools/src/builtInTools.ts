import { ConfigError } from '@adkit/flow';
import { nativeTool, type GeminiNativeTool } from './geminiTool.js';
import { isGemini1Model } from './geminiModels.js';

/**
 * Google Search grounding (BT-11): appends `{googleSearch: {}}`. On Gemini 1.x models it appends
 * `{googleSearchRetrieval: {}}` instead, which must be the only tool of the request. The answer's
 * `groundingMetadata` reaches the event.
 */
export const googleSearch: GeminiNativeTool = nativeTool(
  'google_search',
  'Performs a Google search to retrieve information from the web.',
  { googleSearch: {} },
  (request, model) => {
    const tools = (request.config.tools ??= []);
    if (!isGemini1Model(model)) {
      tools.push({ googleSearch: {} });
      return;
    }
    if (tools.length > 0) {
      throw new ConfigError(
        `Tool "google_search" on Gemini 1.x model "${model}" becomes googleSearchRetrieval, which must be the only tool of the request; move the other tools to another agent or use a Gemini 2 model.`,
      );
    }
    tools.push({ googleSearchRetrieval: {} });
  },
);

/** A native tool that needs Gemini 2 or later. */
function gemini2Tool(name: string, description: string, key: string): GeminiNativeTool {
  return nativeTool(name, description, { [key]: {} }, (request, model) => {
    if (isGemini1Model(model)) {
      throw new ConfigError(`Tool "${name}" needs Gemini 2 or later; model "${model}" cannot use it. Use a newer Gemini model or remove the tool.`);
    }
    (request.config.tools ??= []).push({ [key]: {} });
  });
}

/** Server-side Python execution: appends `{codeExecution: {}}`; results arrive as `executableCode` / `codeExecutionResult` parts. */
export const codeExecution: GeminiNativeTool = nativeTool(
  'code_execution',
  'Writes and runs Python code on Google servers to compute answers.',
  { codeExecution: {} },
);

/** Lets Gemini read the URLs in the prompt: appends `{urlContext: {}}` (Gemini 2+). */
export const urlContext: GeminiNativeTool = gemini2Tool('url_context', 'Reads the content of URLs given in the conversation.', 'urlContext');

/** Google Maps grounding: appends `{googleMaps: {}}` (Gemini 2+). */
export const googleMaps: GeminiNativeTool = gemini2Tool('google_maps', 'Grounds answers in Google Maps data about places.', 'googleMaps');

/** Enterprise web search (Vertex AI): appends `{enterpriseWebSearch: {}}` (Gemini 2+). */
export const enterpriseWebSearch: GeminiNativeTool = gemini2Tool(
  'enterprise_web_search',
  'Searches the web with enterprise-grade compliance controls.',
  'enterpriseWebSearch',
);

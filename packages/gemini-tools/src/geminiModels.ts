import { ConfigError } from '@adkit/flow';

/** The model id without a resource prefix: `models/gemini-2.5-flash`, `projects/…/models/gemini-2.0-flash` → `gemini-…`. */
function modelId(model: string): string {
  return model.slice(model.lastIndexOf('/') + 1);
}

/** Whether the request's model is a Gemini model (native tools run only there). */
export function isGeminiModel(model: string | undefined): model is string {
  return model !== undefined && modelId(model).startsWith('gemini');
}

/** Whether the model is a Gemini 1.x model (older rules for search and retrieval). */
export function isGemini1Model(model: string): boolean {
  return /^gemini-1(\.|-|$)/.test(modelId(model));
}

/**
 * The error for a native tool sent to a model that cannot take it; the flow turns it into an
 * error event before the model is called.
 */
export function notGeminiError(toolName: string, model: string | undefined): ConfigError {
  return new ConfigError(
    `Tool "${toolName}" is a Gemini-native tool and cannot run on ${model ? `model "${model}"` : 'a request without a model name'}: ` +
      'only Gemini models take it. Run it in an agent on a Gemini model and give that agent to this one as an agent-tool, or remove it from this agent.',
  );
}

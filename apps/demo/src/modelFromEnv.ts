import type { Model } from '@adkit/flow';

/** The model the demo talks to, and how to describe it. `model` is absent in offline mode. */
export interface ModelChoice {
  model?: Model;
  label: string;
  /**
   * A Gemini model for Gemini-native tools (Google Search), whenever a Gemini key is set — also
   * when the assistant itself runs on OpenAI.
   */
  gemini?: Model;
}

/** How the demo labels its offline mode. */
export const OFFLINE_LABEL = 'offline demo brain (a scripted model that picks tools from your words; set OPENAI_API_KEY or GEMINI_API_KEY for a real one)';

/**
 * Picks a model from the environment: `OPENAI_API_KEY` (with optional `OPENAI_BASE_URL` and
 * `ADKIT_OPENAI_MODEL`, so any OpenAI-compatible server works), else `GEMINI_API_KEY` or
 * `GOOGLE_API_KEY` (with optional `ADKIT_GEMINI_MODEL`), else offline. A provider's SDK is loaded
 * only when its key is set, so the offline demo starts without either.
 */
export async function modelFromEnv(env: Readonly<Record<string, string | undefined>>): Promise<ModelChoice> {
  const geminiKey = env.GEMINI_API_KEY || env.GOOGLE_API_KEY;
  const geminiName = env.ADKIT_GEMINI_MODEL || 'gemini-2.5-flash';
  const geminiModel = geminiKey ? (await import('@adkit/model-gemini')).gemini(geminiName, { apiKey: geminiKey }) : undefined;
  if (env.OPENAI_API_KEY) {
    const { openai } = await import('@adkit/model-openai');
    const name = env.ADKIT_OPENAI_MODEL || 'gpt-4.1-mini';
    const baseURL = env.OPENAI_BASE_URL || undefined;
    return {
      model: openai(name, { apiKey: env.OPENAI_API_KEY, ...(baseURL ? { baseURL } : {}) }),
      label: `OpenAI ${name}${baseURL ? ` at ${baseURL}` : ''}`,
      ...(geminiModel ? { gemini: geminiModel } : {}),
    };
  }
  if (geminiModel) return { model: geminiModel, label: `Gemini ${geminiName}`, gemini: geminiModel };
  return { label: OFFLINE_LABEL };
}

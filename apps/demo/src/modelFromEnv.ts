import type { Model } from '@adkit/flow';
import { gemini } from '@adkit/model-gemini';
import { openai } from '@adkit/model-openai';

/** The model the demo talks to, and how to describe it. `model` is absent in offline mode. */
export interface ModelChoice {
  model?: Model;
  label: string;
}

/**
 * Picks a model from the environment: `OPENAI_API_KEY` (with optional `OPENAI_BASE_URL` and
 * `ADKIT_OPENAI_MODEL`, so any OpenAI-compatible server works), else `GEMINI_API_KEY` or
 * `GOOGLE_API_KEY` (with optional `ADKIT_GEMINI_MODEL`), else offline.
 */
export function modelFromEnv(env: Readonly<Record<string, string | undefined>>): ModelChoice {
  if (env.OPENAI_API_KEY) {
    const name = env.ADKIT_OPENAI_MODEL || 'gpt-4.1-mini';
    const baseURL = env.OPENAI_BASE_URL || undefined;
    return {
      model: openai(name, { apiKey: env.OPENAI_API_KEY, ...(baseURL ? { baseURL } : {}) }),
      label: `OpenAI ${name}${baseURL ? ` at ${baseURL}` : ''}`,
    };
  }
  const geminiKey = env.GEMINI_API_KEY || env.GOOGLE_API_KEY;
  if (geminiKey) {
    const name = env.ADKIT_GEMINI_MODEL || 'gemini-2.5-flash';
    return { model: gemini(name, { apiKey: geminiKey }), label: `Gemini ${name}` };
  }
  return { label: 'offline (a scripted model; set OPENAI_API_KEY or GEMINI_API_KEY to use a real one)' };
}

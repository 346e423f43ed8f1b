import type { Content, LlmRequest } from '@adkit/flow';
import { clipString, displayValue } from './displayValue.js';

/** The generation settings shown; anything else in `config` is hidden and only named. */
const SHOWN_SETTINGS = [
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'thinkingConfig',
] as const;

/** `config` keys that are the request itself and shown on their own. */
const STRUCTURAL_KEYS = new Set(['systemInstruction', 'tools', 'toolConfig']);

/** How many of the newest contents the view keeps. */
const SHOWN_CONTENTS = 30;

/** What the page shows of the request a model last received (a copy taken when it was sent). */
export interface ModelRequestView {
  /** When the model got it (ms since the epoch). */
  at: number;
  agent: string;
  model?: string;
  /** The system instruction's text parts, joined. */
  systemInstruction: string;
  /** Each tool declaration the model saw: function declarations, and native tools by kind. */
  tools: unknown[];
  toolConfig?: unknown;
  /** The tools the flow can dispatch this step, by name; `longRunning` for those that answer later. */
  dispatch: { name: string; longRunning: boolean }[];
  /** Generation settings (temperature, schemas, …). */
  settings: Record<string, unknown>;
  /** Other `config` keys, named but not shown (provider options may hold credentials). */
  hiddenConfigKeys: string[];
  /** How many contents the request had, and the newest of them. */
  contentCount: number;
  contents: unknown[];
}

/**
 * Copies what a developer needs from a model request: the system instruction, the tool
 * declarations, the dispatch table's names, the generation settings and the newest contents.
 * Nothing else is read — in particular no context object and no provider option outside the
 * settings listed here — and everything is cut to displayable size.
 */
export function modelRequestView(request: LlmRequest, agent: string, at: number): ModelRequestView {
  const config = request.config ?? {};
  const settings: Record<string, unknown> = {};
  for (const key of SHOWN_SETTINGS) if (config[key] !== undefined) settings[key] = displayValue(config[key]);
  const hiddenConfigKeys = Object.keys(config)
    .filter((key) => !STRUCTURAL_KEYS.has(key) && !(SHOWN_SETTINGS as readonly string[]).includes(key) && config[key] !== undefined)
    .map((key) => clipString(key, 100));
  const contents = request.contents ?? [];
  const dispatch = Object.entries(request.tools ?? {}).map(([name, tool]) => ({
    name: clipString(name, 200),
    longRunning: Boolean(tool?.isLongRunning),
  }));
  const view: ModelRequestView = {
    at,
    agent,
    systemInstruction: clipString(instructionText(config.systemInstruction), 200_000),
    tools: (config.tools ?? []).flatMap((tool) => {
      if (tool && typeof tool === 'object' && Array.isArray(tool.functionDeclarations))
        return tool.functionDeclarations.map((declaration) => displayValue(declaration));
      return [displayValue(tool)];
    }),
    dispatch,
    settings,
    hiddenConfigKeys,
    contentCount: contents.length,
    contents: contents.slice(-SHOWN_CONTENTS).map((content) => displayValue(content)),
  };
  if (typeof request.model === 'string') view.model = clipString(request.model, 200);
  if (config.toolConfig !== undefined) view.toolConfig = displayValue(config.toolConfig);
  return view;
}

function instructionText(content: Content | undefined): string {
  if (!content || !Array.isArray(content.parts)) return '';
  return content.parts
    .map((part) => (typeof part?.text === 'string' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join('\n\n');
}

import type { Content, FunctionResponse, LlmRequest, Part } from '@adkit/flow';

/** What the inline-media rule decides on: one image or audio part, and the model of the step. */
export interface InlineMediaInfo {
  readonly kind: 'image' | 'audio';
  readonly mimeType: string;
  /** The model the request goes to (`LlmRequest.model`), `''` when unknown. */
  readonly model: string;
}

/**
 * Which images and audio of MCP results also reach the model as data: `true` all, `false` none
 * (the model reads only their labels), or a function deciding per part. The default
 * (`defaultInlineMedia`) sends images to every model and audio to Gemini models only.
 */
export type InlineMediaRule = boolean | ((media: InlineMediaInfo) => boolean);

/**
 * The default rule: images go to every model (both adapters take them), audio only to models
 * whose name contains "gemini" (OpenAI's chat models take no audio beside a tool result).
 */
export function defaultInlineMedia(media: InlineMediaInfo): boolean {
  return media.kind === 'image' || (media.kind === 'audio' && /gemini/i.test(media.model));
}

/**
 * The images and audio of MCP results travel as flow's function response parts
 * (`withResponseParts`, stored with the event, sent by each adapter the way its provider takes
 * them: #30's one mechanism). Per request this applies the toolset's rule to the responses of
 * its own tools (`owns`): in the current turn (after the last model turn) the parts the rule
 * allows for this model stay; earlier turns keep only the labels in `output`, as before. The
 * request's contents are replaced, never changed in place (the flow may share them).
 */
export function applyInlineMedia(request: LlmRequest, rule: InlineMediaRule, owns: (toolName: string) => boolean): void {
  const contents = request.contents;
  const model = request.model ?? '';
  let current = true;
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i]!;
    if (content.role === 'model') {
      current = false;
      continue;
    }
    if (!content.parts?.some((part) => part.functionResponse?.parts && owns(part.functionResponse.name))) continue;
    contents[i] = withMediaRule(content, current ? rule : false, model, owns);
  }
}

function withMediaRule(content: Content, rule: InlineMediaRule, model: string, owns: (toolName: string) => boolean): Content {
  const parts = (content.parts ?? []).map((part): Part => {
    const response = part.functionResponse;
    if (!response?.parts || !owns(response.name)) return part;
    const allowed = response.parts.filter((media) => allows(rule, media.inlineData?.mimeType ?? '', model));
    const { parts: _all, ...rest } = response;
    const kept: FunctionResponse = allowed.length > 0 ? { ...rest, parts: allowed } : rest;
    return { ...part, functionResponse: kept };
  });
  return { ...content, parts };
}

function allows(rule: InlineMediaRule, mimeType: string, model: string): boolean {
  if (typeof rule === 'boolean') return rule;
  const kind = mimeType.startsWith('audio/') ? 'audio' : 'image';
  return rule({ kind, mimeType, model });
}

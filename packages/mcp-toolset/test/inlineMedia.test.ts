// #30: MCP images and audio travel as flow's function response parts (one mechanism for every
// tool); `inlineMedia` decides per request which of them the model gets: in the current turn
// those the rule allows for the model, earlier turns only their labels. Contents are replaced,
// never changed in place (they may be frozen). Bad input tried: a frozen history, a response of
// another toolset's tool, a rule that refuses everything.
import { createLlmRequest, type Content, type LlmRequest, type Tool } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { applyInlineMedia, defaultInlineMedia } from '../src/inlineMedia.js';

const png = { inlineData: { mimeType: 'image/png', data: 'AAAA' } };
const wav = { inlineData: { mimeType: 'audio/wav', data: 'BBBB' } };
const turn = (id: string, name = 'shot'): Content[] => [
  { role: 'model', parts: [{ functionCall: { id, name, args: {} } }] },
  { role: 'user', parts: [{ functionResponse: { id, name, response: { output: '[MCP image …]' }, parts: [png, wav] } }] },
];
const ours = { name: 'shot', description: '' } as Tool;
const request = (model: string, contents: Content[]): LlmRequest => {
  // The flow may share (and freeze) the contents; the list itself is the request's own.
  const req = createLlmRequest({ model, contents: contents.map((c) => Object.freeze(c)) });
  Object.assign(req.tools, { shot: ours, other: { name: 'other', description: '' } as Tool });
  return req;
};
const partsOf = (req: LlmRequest, index: number) => req.contents[index]!.parts![0]!.functionResponse!.parts;
const owns = (req: LlmRequest) => (name: string) => req.tools[name] === ours;

describe('applyInlineMedia', () => {
  it('the default rule: images for every model, audio for Gemini models only, in the current turn', () => {
    const openai = request('gpt-4.1', turn('a'));
    applyInlineMedia(openai, defaultInlineMedia, owns(openai));
    expect(partsOf(openai, 1)).toEqual([png]);
    const gemini = request('gemini-2.5-flash', turn('a'));
    applyInlineMedia(gemini, defaultInlineMedia, owns(gemini));
    expect(partsOf(gemini, 1)).toEqual([png, wav]);
  });

  it('earlier turns keep only their labels; false drops all; a function decides per part; other tools are left alone', () => {
    const req = request('gemini-2.5-flash', [...turn('a'), ...turn('b', 'other'), ...turn('c')]);
    applyInlineMedia(req, true, owns(req));
    expect(partsOf(req, 1)).toBeUndefined();
    expect(req.contents[1]!.parts![0]!.functionResponse!.response).toEqual({ output: '[MCP image …]' });
    expect(partsOf(req, 3)).toEqual([png, wav]); // another toolset's: not ours to filter
    expect(partsOf(req, 5)).toEqual([png, wav]);
    const none = request('gemini-2.5-flash', turn('a'));
    applyInlineMedia(none, false, owns(none));
    expect(partsOf(none, 1)).toBeUndefined();
    const audioOnly = request('gpt-4o-audio', turn('a'));
    applyInlineMedia(audioOnly, ({ kind }) => kind === 'audio', owns(audioOnly));
    expect(partsOf(audioOnly, 1)).toEqual([wav]);
  });
});

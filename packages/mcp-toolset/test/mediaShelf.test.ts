// Which media reach the model, and when: matched by call id, or by invocation, name and output
// when the flow removed its own ids; only in the turn right after the call; bounded. Bad input
// tried: 40 results (over the 32 kept), one result over 32 MB, a response replaced by a callback,
// two calls of one tool with the same output, an older turn.
import { createLlmRequest, type Content } from '@adkit/flow';
import { describe, expect, it } from 'vitest';
import { MediaShelf, defaultInlineMedia } from '../src/mediaShelf.js';

const image = (data: string) => ({ kind: 'image' as const, mimeType: 'image/png', data });
const call = (id: string, toolName = 'shot', invocationId = 'inv-1') => ({ functionCallId: id, invocationId, toolName });
const turn = (responses: { id?: string; name?: string; output: unknown }[]): Content[] => [
  { role: 'model', parts: responses.map(({ id, name = 'shot' }) => ({ functionCall: { ...(id ? { id } : {}), name, args: {} } })) },
  { role: 'user', parts: responses.map(({ id, name = 'shot', output }) => ({ functionResponse: { ...(id ? { id } : {}), name, response: { output } } })) },
];
const attached = (shelf: MediaShelf, contents: Content[], model = 'gpt-4.1', invocationId = 'inv-1') => {
  const request = createLlmRequest({ model, contents: [...contents] });
  shelf.attach(invocationId, request);
  return request.contents.slice(contents.length).flatMap((content) => content.parts ?? []).filter((part) => part.inlineData).map((part) => part.inlineData!.data);
};

describe('MediaShelf', () => {
  it('matches by call id, or by invocation, tool name and output, each result once', () => {
    const shelf = new MediaShelf(true);
    shelf.put(call('a'), 'same text', [image('AAAA')]);
    shelf.put(call('b'), 'same text', [image('BBBB')]);
    expect(attached(shelf, turn([{ id: 'a', output: 'same text' }]))).toEqual(['AAAA']);
    // Without ids (the flow drops its adk- ids): two identical outputs take one result each.
    expect(attached(shelf, turn([{ output: 'same text' }, { output: 'same text' }]))).toEqual(['AAAA', 'BBBB']);
    expect(attached(shelf, turn([{ output: 'same text' }]), 'gpt-4.1', 'another-run')).toEqual([]);
    expect(attached(shelf, turn([{ output: 'replaced by a callback' }]))).toEqual([]);
    expect(attached(shelf, turn([{ name: 'other', output: 'same text' }]))).toEqual([]);
  });

  it('only the current turn gets media; an older turn keeps its labels only', () => {
    const shelf = new MediaShelf(true);
    shelf.put(call('a'), 'x', [image('AAAA')]);
    const contents = [...turn([{ id: 'a', output: 'x' }]), ...turn([{ id: 'b', output: 'y' }])];
    expect(attached(shelf, contents)).toEqual([]);
  });

  it('keeps at most 32 results and 32 MB; a bigger result is not kept', () => {
    const shelf = new MediaShelf(true);
    for (let i = 0; i < 40; i++) shelf.put(call(`c${i}`), `o${i}`, [image(`D${i}`)]);
    expect(attached(shelf, turn([{ id: 'c7', output: 'o7' }]))).toEqual([]);
    expect(attached(shelf, turn([{ id: 'c8', output: 'o8' }]))).toEqual(['D8']);
    shelf.put(call('huge'), 'h', [image('A'.repeat(33 * 1024 * 1024))]);
    expect(attached(shelf, turn([{ id: 'huge', output: 'h' }]))).toEqual([]);
    expect(attached(shelf, turn([{ id: 'c39', output: 'o39' }]))).toEqual(['D39']);
  });

  it('the default rule: images for every model, audio for Gemini models only', () => {
    expect(defaultInlineMedia({ kind: 'image', mimeType: 'image/png', model: 'gpt-4.1' })).toBe(true);
    expect(defaultInlineMedia({ kind: 'audio', mimeType: 'audio/wav', model: 'gpt-4o-audio-preview' })).toBe(false);
    expect(defaultInlineMedia({ kind: 'audio', mimeType: 'audio/wav', model: 'gemini-2.5-flash' })).toBe(true);
    expect(defaultInlineMedia({ kind: 'audio', mimeType: 'audio/wav', model: '' })).toBe(false);
  });
});

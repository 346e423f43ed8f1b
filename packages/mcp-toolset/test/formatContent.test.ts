// MCP-8 content formatting and the structured-content media rule, unit by unit. Bad input tried:
// null and unknown blocks, blocks missing their fields, quotes and newlines in attributes, blobs
// with ambiguous, malformed or unknown charsets and invalid UTF-8, "__proto__" keys, values nested
// 10,000 deep, a 50 MB base64 string.
import { describe, expect, it } from 'vitest';
import { base64Size, decodeTextBlob, formatContent } from '../src/formatContent.js';
import { withoutMediaData } from '../src/structuredOutput.js';

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describe('formatContent (MCP-8)', () => {
  it('joins text blocks directly and puts labels on lines of their own', () => {
    const { text, media } = formatContent([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { type: 'image', data: b64('12345'), mimeType: 'image/png' },
      { type: 'text', text: '\nafter' },
      { type: 'audio', data: b64('xyz'), mimeType: '' },
      { type: 'text', text: '' },
    ]);
    expect(text).toBe('ab\n[MCP image: mimeType="image/png", size=5 bytes]\nafter\n[MCP audio: size=3 bytes]');
    expect(media).toEqual([
      { kind: 'image', mimeType: 'image/png', data: b64('12345') },
      { kind: 'audio', mimeType: '', data: b64('xyz') },
    ]);
  });

  it('labels resource links with the attributes present, quoted', () => {
    expect(
      formatContent([
        { type: 'resource_link', uri: 'file:///a "b".txt', name: 'n', title: 't\nx', size: 12 },
        { type: 'resource_link' },
      ]).text,
    ).toBe('[MCP resource link: uri="file:///a \\"b\\".txt", name="n", title="t\\nx", size=12 bytes]\n[MCP resource link]');
  });

  it('embedded resources: text, decodable blobs, other blobs', () => {
    expect(formatContent([{ type: 'resource', resource: { uri: 'u', mimeType: 'text/plain', text: 'hello' } }]).text).toBe(
      '[MCP embedded resource: uri="u", mimeType="text/plain"]\nhello',
    );
    expect(formatContent([{ type: 'resource', resource: { uri: 'u', mimeType: 'application/json', blob: b64('{"a":1}') } }]).text).toBe(
      '[MCP embedded resource: uri="u", mimeType="application/json"]\n{"a":1}',
    );
    expect(formatContent([{ type: 'resource', resource: { uri: 'u', mimeType: 'application/zip', blob: b64('PK..') } }]).text).toBe(
      '[MCP embedded resource: uri="u", mimeType="application/zip", size=4 bytes]',
    );
    expect(formatContent([{ type: 'resource', resource: { uri: 'u', blob: '' } }]).text).toBe('[MCP embedded resource: uri="u"]');
  });

  it('null, malformed and unknown blocks are labelled, never thrown on', () => {
    expect(
      formatContent([null, 'text', { type: 'text' }, { type: 'image' }, { type: 'resource' }, { type: 'video', data: 'x' }]).text,
    ).toBe(
      [
        '[MCP content: unavailable]',
        '[MCP content: unavailable]',
        '[MCP text content: unavailable]',
        '[MCP image: unavailable]',
        '[MCP embedded resource: unavailable]',
        '[MCP content: unsupported]',
      ].join('\n'),
    );
    expect(formatContent(undefined)).toEqual({ text: '', media: [] });
  });

  it('sizes base64 without decoding it, 50 MB included', () => {
    expect(base64Size(b64('a'))).toBe(1);
    expect(base64Size(b64('ab'))).toBe(2);
    expect(base64Size(b64('abc'))).toBe(3);
    expect(base64Size(`${b64('abcdef')}\n`)).toBe(6);
    const big = 'A'.repeat(50 * 1024 * 1024);
    expect(base64Size(big)).toBe(Math.floor((big.length * 3) / 4));
  });
});

describe('decodeTextBlob (MCP-8 media types and charsets)', () => {
  it('decodes text types with no, UTF-8 or ASCII charsets', () => {
    for (const type of ['text/plain', 'text/csv; charset=utf-8', 'application/ld+json', 'image/svg+xml', 'application/x-yaml', 'text/plain; charset="UTF8"'])
      expect(decodeTextBlob(b64('héllo'), type)).toBe('héllo');
    expect(decodeTextBlob(b64('plain'), 'text/plain; charset=us-ascii')).toBe('plain');
    expect(decodeTextBlob(b64('x'), 'text/plain; format=flowed; broken')).toBe('x'); // an unrelated malformed parameter
  });

  it('refuses binary types, bad bytes, and unclear charsets', () => {
    expect(decodeTextBlob(b64('x'), 'application/octet-stream')).toBeUndefined();
    expect(decodeTextBlob(b64('x'), '')).toBeUndefined();
    expect(decodeTextBlob(b64(Buffer.from([0xff, 0xfe, 0x41])), 'text/plain')).toBeUndefined();
    expect(decodeTextBlob(b64('héllo'), 'text/plain; charset=ascii')).toBeUndefined();
    expect(decodeTextBlob(b64('x'), 'text/plain; charset=latin1')).toBeUndefined();
    expect(decodeTextBlob(b64('x'), 'text/plain; charset=utf-8; charset=utf-8')).toBeUndefined();
    expect(decodeTextBlob(b64('x'), 'text/plain; charset')).toBeUndefined();
    expect(decodeTextBlob(b64('x'), 'text/plain; charset=')).toBeUndefined();
    expect(decodeTextBlob(b64('x'), 'text/plain extra')).toBeUndefined(); // #23 point 17: a malformed media type
    expect(decodeTextBlob(b64('x'), 'text/plain; name="a""; charset=utf-16; x="b')).toBeUndefined();
    expect(decodeTextBlob(b64('x'), 'text/plain; name="a\\\n; charset=utf-16"')).toBeUndefined();
  });
});

describe('withoutMediaData (structured content)', () => {
  it('replaces media data with its label, copying only what changes', () => {
    const untouched = { list: [1, 2], deep: { a: 'b' } };
    const value = { keep: untouched, shots: [{ type: 'image', mimeType: 'image/png', data: b64('12') }, { type: 'image', data: 3 }] };
    const out = withoutMediaData(value);
    expect(out).toEqual({
      keep: untouched,
      shots: [{ type: 'image', mimeType: 'image/png', data: '[MCP image: mimeType="image/png", size=2 bytes]' }, { type: 'image', data: 3 }],
    });
    expect(out.keep).toBe(untouched);
    expect(value.shots[0]!.data).toBe(b64('12')); // the input is not changed
    expect(withoutMediaData(untouched)).toBe(untouched);
  });

  it('keeps "__proto__" keys as own data and stops at depth 32 on a 10,000-deep value', () => {
    const value = JSON.parse(`{"__proto__":{"type":"audio","data":"${b64('abc')}"},"x":1}`) as Record<string, unknown>;
    const out = withoutMediaData(value);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')!.value).toEqual({ type: 'audio', data: '[MCP audio: size=3 bytes]' });
    expect(({} as Record<string, unknown>).type).toBeUndefined();

    let deep: Record<string, unknown> = { type: 'image', data: b64('x') };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    expect(withoutMediaData(deep)).toBe(deep); // the image is far below the limit: left as is
  });
});

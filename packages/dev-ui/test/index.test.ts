// The public API of @adkit/dev-ui, pinned; and the page's script is valid JavaScript with no
// template holes (it is served as one string; a stray backtick or `${` would break it).
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { PAGE_SCRIPT } from '../src/page/pageScript.js';

describe('@adkit/dev-ui exports', () => {
  it('exports exactly the public API', () => {
    expect(Object.keys(api).sort()).toEqual(['devUiPlugin', 'isDevUiPlugin', 'serveDevUi']);
  });

  it('serves a page script that parses, in strict mode, and never writes HTML strings into the page', () => {
    expect(() => new Script(PAGE_SCRIPT)).not.toThrow();
    expect(PAGE_SCRIPT.startsWith("(function () {\n'use strict';")).toBe(true);
    expect(PAGE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});

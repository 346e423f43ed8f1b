import type { ArgumentPlan, ParameterSlot } from './operationSchema.js';

/** A request ready for `fetch`, described for messages without its secrets. */
export interface BuiltRequest {
  url: URL;
  method: string;
  headers: Headers;
  body?: string;
  /** `METHOD /path` for messages: no query (it may hold an API key), no host. */
  label: string;
  /** Headers that carry credentials (lower case): never sent on to another origin. */
  secretHeaders: readonly string[];
}

/** Credentials and app headers, applied after the model's parameters (so they win). */
export interface RequestExtras {
  headers: Record<string, string>;
  query: Record<string, string>;
  cookies: Record<string, string>;
}

/** A problem with the model's arguments that the model can fix; the message is for it. */
export class ArgumentProblem extends Error {}

const UNSAFE_HEADER_VALUE = /[\r\n\0]/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Builds the request of one call. The base URL is the app's or the spec's, never the model's:
 * each path parameter is percent-encoded as one segment (so `/`, `?`, `#` and a full URL stay
 * inside it) and `.`/`..` are refused, and the final URL must keep the base's origin and path
 * prefix. Header and cookie values with CR, LF or NUL are refused (no header injection).
 */
export function buildRequest(
  base: URL,
  method: string,
  pathTemplate: string,
  plan: ArgumentPlan,
  args: Record<string, unknown>,
  extras: RequestExtras,
): BuiltRequest {
  const byName = new Map<string, ParameterSlot>();
  for (const slot of plan.parameters) if (slot.parameter.in === 'path') byName.set(slot.parameter.name, slot);
  const path = pathTemplate.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const slot = byName.get(name);
    const value = slot ? own(args, slot.key) : undefined;
    if (value === undefined || value === null) throw new ArgumentProblem(`the path parameter "${slot?.key ?? name}" is required`);
    const parameter = slot!.parameter;
    const values = Array.isArray(value) ? value.map(scalar) : [serializeSimple(value, parameter.explode === true)];
    for (const text of values)
      if (text === '' || text === '.' || text === '..')
        throw new ArgumentProblem(`the path parameter "${slot!.key}" must not be ${text === '' ? 'empty' : `"${text}"`}; give the value itself`);
    const encoded = values.map(encodeURIComponent);
    // OpenAPI path styles: simple (default) `a,b`, label `.a.b`, matrix `;id=a,b` (exploded `;id=a;id=b`).
    if (parameter.style === 'label') return `.${encoded.join(parameter.explode ? '.' : ',')}`;
    if (parameter.style === 'matrix') {
      const name = encodeURIComponent(parameter.name);
      return parameter.explode ? encoded.map((v) => `;${name}=${v}`).join('') : `;${name}=${encoded.join(',')}`;
    }
    return encoded.join(',');
  });
  const basePath = base.pathname.replace(/\/+$/, '');
  const url = new URL(base.href);
  url.pathname = `${basePath}${path.startsWith('/') ? '' : '/'}${path}`;
  url.search = '';
  url.hash = '';
  if (url.origin !== base.origin || !url.pathname.startsWith(basePath))
    throw new ArgumentProblem('the path parameters lead outside the API; give plain values');

  const headers = new Headers();
  const cookies: string[] = [];
  for (const slot of plan.parameters) {
    const value = own(args, slot.key);
    if (value === undefined) continue;
    const { parameter } = slot;
    switch (parameter.in) {
      case 'query':
        appendQuery(url.searchParams, parameter.name, value, slot);
        break;
      case 'header': {
        const text = slot.json ? JSON.stringify(value) : serializeSimple(value, parameter.explode === true);
        if (UNSAFE_HEADER_VALUE.test(text)) throw new ArgumentProblem(`the header parameter "${slot.key}" must not contain line breaks or NUL characters`);
        if (!TOKEN.test(parameter.name)) throw new ArgumentProblem(`the API declares the header "${parameter.name}", which is not a valid header name; this operation cannot be called`);
        headers.set(parameter.name, text);
        break;
      }
      case 'cookie': {
        const text = slot.json ? JSON.stringify(value) : serializeSimple(value, false);
        if (!TOKEN.test(parameter.name)) throw new ArgumentProblem(`the API declares the cookie "${parameter.name}", which is not a valid cookie name; this operation cannot be called`);
        cookies.push(`${parameter.name}=${encodeURIComponent(text)}`);
        break;
      }
    }
  }
  for (const [name, value] of Object.entries(extras.query)) url.searchParams.set(name, value);
  for (const [name, value] of Object.entries(extras.cookies)) cookies.push(`${name}=${encodeURIComponent(value)}`);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  for (const [name, value] of Object.entries(extras.headers)) headers.set(name, value);
  if (!headers.has('accept')) headers.set('accept', 'application/json, */*;q=0.8');

  let body: string | undefined;
  if (plan.body) {
    const value = own(args, plan.body.key);
    if (value !== undefined) {
      body = encodeBody(plan.body.mediaType, value);
      headers.set('content-type', plan.body.mediaType);
    }
  }
  const secretHeaders = ['authorization', 'cookie', ...Object.keys(extras.headers).map((name) => name.toLowerCase())];
  const built: BuiltRequest = { url, method: method.toUpperCase(), headers, label: `${method.toUpperCase()} ${url.pathname}`, secretHeaders };
  if (body !== undefined) built.body = body;
  return built;
}

/** Own properties only: `__proto__` and friends in the arguments are data, never the prototype. */
function own(args: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(args, key) ? args[key] : undefined;
}

/** OpenAPI `simple` style: arrays comma-joined; objects `k,v,k,v` (or `k=v,k=v` exploded). */
function serializeSimple(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (typeof value === 'object' && value !== null)
    return Object.entries(value)
      .map(([k, v]) => (explode ? `${k}=${scalar(v)}` : `${k},${scalar(v)}`))
      .join(',');
  return scalar(value);
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

/** OpenAPI query styles: `form` (default, exploded), `spaceDelimited`, `pipeDelimited`, `deepObject`. */
function appendQuery(params: URLSearchParams, name: string, value: unknown, slot: ParameterSlot): void {
  if (slot.json) {
    params.append(name, JSON.stringify(value));
    return;
  }
  const style = slot.parameter.style ?? 'form';
  const explode = slot.parameter.explode ?? style === 'form';
  if (Array.isArray(value)) {
    if (style === 'form' && explode) for (const item of value) params.append(name, scalar(item));
    else params.append(name, value.map(scalar).join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (style === 'deepObject') for (const [k, v] of entries) params.append(`${name}[${k}]`, scalar(v));
    else if (explode) for (const [k, v] of entries) params.append(k, scalar(v));
    else params.append(name, entries.map(([k, v]) => `${k},${scalar(v)}`).join(','));
    return;
  }
  params.append(name, scalar(value));
}

function encodeBody(mediaType: string, value: unknown): string {
  const type = mediaType.toLowerCase();
  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams();
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) {
        if (Array.isArray(v)) for (const item of v) form.append(k, scalar(item));
        else if (v !== undefined) form.append(k, scalar(v));
      }
    return form.toString();
  }
  if (type.startsWith('text/') || !(type.includes('json'))) return typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

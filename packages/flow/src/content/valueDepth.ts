/**
 * How deep JSON values that pass through the flow may nest: function-call arguments, tool results
 * and state values. Deeper values are refused with an error the model (or the caller) sees, since
 * stores, SDKs and providers copy them recursively (protobuf, which Gemini uses, stops at 100).
 */
export const MAX_VALUE_DEPTH = 100;

/**
 * Whether the value nests objects or arrays deeper than `max` levels. A value of a few levels and
 * nodes (what most calls carry) is measured by recursion, with nothing allocated (#24); anything
 * deeper or larger goes to `walkExceeds`, which is iterative, so a value nested 10,000 (or a
 * million) levels deep is measured without exhausting the stack.
 */
export function exceedsDepth(value: unknown, max = MAX_VALUE_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // Kept and put back: a getter read by this check may start a check of its own.
  const outer = visits;
  let shallow: number;
  try {
    visits = 0;
    shallow = shallowDepth(value, 1, max);
  } finally {
    visits = outer;
  }
  return shallow === UNDECIDED ? walkExceeds(value, max) : shallow === EXCEEDS;
}

const FITS = 0;
const EXCEEDS = 1;
const UNDECIDED = 2;
/** How deep, and over how many objects, the recursion goes before it leaves the value to the walk. */
const MAX_RECURSION = 32;
const MAX_VISITS = 256;
// The objects the current recursion visited: a value whose parts are shared (a DAG) is visited
// once per path, so the count bounds the work; a cycle runs into the depth bound.
let visits = 0;

function shallowDepth(value: object, depth: number, max: number): number {
  if (depth > max) return EXCEEDS;
  if (depth > MAX_RECURSION || ++visits > MAX_VISITS) return UNDECIDED;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'object' && child !== null) {
        const found = shallowDepth(child, depth + 1, max);
        if (found !== FITS) return found;
      }
    }
    return FITS;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null) {
      const found = shallowDepth(child, depth + 1, max);
      if (found !== FITS) return found;
    }
  }
  return FITS;
}

/** `exceedsDepth` by a walk with its own stack, each object visited once. */
function walkExceeds(value: object, max: number): boolean {
  const stack: [object, number][] = [[value, 1]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > max) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

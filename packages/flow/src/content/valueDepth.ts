/**
 * How deep JSON values that pass through the flow may nest: function-call arguments, tool results
 * and state values. Deeper values are refused with an error the model (or the caller) sees, since
 * stores, SDKs and providers copy them recursively (protobuf, which Gemini uses, stops at 100).
 */
export const MAX_VALUE_DEPTH = 100;

/**
 * Whether the value nests objects or arrays deeper than `max` levels. Iterative, so a value nested
 * 10,000 (or a million) levels deep is measured without exhausting the stack.
 */
export function exceedsDepth(value: unknown, max = MAX_VALUE_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
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

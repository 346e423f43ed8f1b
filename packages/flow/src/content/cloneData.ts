import { setOwnProperty } from './ownProperty.js';

/**
 * A deep copy of data: plain objects and arrays are copied by hand (several times faster than
 * `structuredClone` for the small objects events are made of); anything else that is an object
 * (a Date, a Map, a typed array) goes through `structuredClone`, which throws on what it cannot
 * copy (a function, a class instance with private state). Keys such as `__proto__` are kept as
 * data. Below its first levels it walks with a stack of its own, so a value nested a million
 * levels deep is copied without a stack overflow (callers that store values still bound their
 * depth: `exceedsDepth`).
 */
export function cloneData<T>(value: T): T {
  return copyData(value, copyOpen);
}

/**
 * `cloneData`, with every copied array and plain object frozen as it is filled: what
 * `deepFreeze(cloneData(value))` gives, in one walk instead of two (#24: a stored event is copied
 * and frozen once). Values that went through `structuredClone` (a Date, a typed array) are left
 * unfrozen, as `deepFreeze` leaves them.
 */
export function frozenCopy<T>(value: T): T {
  return copyData(value, copyFrozen);
}

/**
 * `frozenCopy` of an event a store keeps, laid out to be kept: the same data, but its top object
 * is made by a constructor, whose objects V8 sizes to hold an event's fields in the object itself
 * (a `{}` holds four; the rest of an event's seven or more went to a second object), and actions
 * that carry nothing are one shared frozen object. Each kept event is two objects fewer for the
 * young-generation collector to copy (#24). Still a plain object: `Object.prototype` is its
 * prototype and `Object` its constructor.
 */
export function frozenEventCopy<T>(event: T): T {
  return copyData(event, copyKept);
}

/** The one frozen empty object and array that frozen copies share. */
const EMPTY_OBJECT: Readonly<Record<string, unknown>> = Object.freeze({});
const EMPTY_ARRAY: readonly unknown[] = Object.freeze([]);

const copyOpen = (value: object) => copyNested(value, false, 0);
const copyFrozen = (value: object) => copyNested(value, true, 0);

function copyData<T>(value: T, copy: (value: object) => unknown): T {
  if (typeof value !== 'object' || value === null) return copyPrimitive(value);
  // Kept and put back: a getter read by this copy may start a copy of its own.
  const outer = ownOnly;
  try {
    ownOnly = inheritsEnumerableKeys();
    const copied = copy(value) as T;
    // A getter that polluted the prototype while the copy ran: copied again, own keys only.
    if (ownOnly || !inheritsEnumerableKeys()) return copied;
    ownOnly = true;
    return copy(value) as T;
  } finally {
    ownOnly = outer;
  }
}

/**
 * Makes plain objects (`Object.prototype` is their prototype) with room for their fields in them.
 * Named `Object`, so tools that name an object by the function that made it (heap snapshots,
 * DevTools) show a plain object too.
 */
const KeptObject = function Object() {} as unknown as new () => Record<string, unknown>;
(KeptObject as { prototype: object }).prototype = Object.prototype;

/** The actions of every kept event that carries nothing but its two empty maps. */
const BARE_ACTIONS = Object.freeze({ stateDelta: EMPTY_OBJECT, artifactDelta: EMPTY_OBJECT });

function copyKept(value: object): unknown {
  if (Array.isArray(value) || !isPlainObject(value)) return copyNested(value, true, 0);
  const object = new KeptObject();
  if (!fillObject(object, value, true, 0)) return EMPTY_OBJECT;
  // Replaced in its place, before the event is frozen.
  if (Object.hasOwn(object, 'actions') && isBareActions(object.actions)) object.actions = BARE_ACTIONS;
  return Object.freeze(object);
}

/**
 * Whether a frozen copy of actions is `{stateDelta: {}, artifactDelta: {}}`, keys in that order:
 * then nobody can tell `BARE_ACTIONS` from it. Checked on the copy, so no getter is read twice.
 */
function isBareActions(copy: unknown): boolean {
  if (typeof copy !== 'object' || copy === null) return false;
  let count = 0;
  for (const key in copy as object) {
    if (key !== (count === 0 ? 'stateDelta' : count === 1 ? 'artifactDelta' : undefined)) return false;
    count++;
  }
  const actions = copy as Record<string, unknown>;
  return actions.stateDelta === EMPTY_OBJECT && actions.artifactDelta === EMPTY_OBJECT;
}

/**
 * Whether the copy in progress must skip inherited keys: only when `Object.prototype` has
 * enumerable keys (polluted), as only plain objects are walked by key. Asked once per copy,
 * not once per key (#24).
 */
let ownOnly = false;

function inheritsEnumerableKeys(): boolean {
  for (const _key in Object.prototype) return true;
  return false;
}

/** How deep `copyNested` recurses before the rest of a value is copied with a stack of its own. */
const MAX_RECURSION = 48;

/**
 * The copy of an object, recursively: events are a few levels deep, and recursion needs no queue
 * (about 20% faster per stored event than the walk, #24). Past `MAX_RECURSION` levels the rest
 * goes to `copyWalked`, so no value can overflow the stack.
 */
function copyNested(value: object, freeze: boolean, depth: number): unknown {
  if (depth > MAX_RECURSION) return copyWalked(value, freeze);
  if (Array.isArray(value)) {
    if (freeze && value.length === 0) return EMPTY_ARRAY;
    // A plain array is sliced, then each element put in place: the copy has the length it needs.
    // Filled by push from [], a one-part list kept room for 16 (#24: a fifth of the memory a
    // stored turn keeps). Any other array (a subclass, whose slice would make one of its own) is
    // copied element by element into a plain one.
    let array: unknown[];
    if (Object.getPrototypeOf(value) === Array.prototype) {
      // Its elements are read from the slice: a getter on an index is read once.
      array = value.slice();
      for (let i = 0; i < array.length; i++) array[i] = copyChild(array[i], freeze, depth);
    } else {
      array = [];
      for (let i = 0; i < value.length; i++) array.push(copyChild(value[i], freeze, depth));
    }
    return freeze ? Object.freeze(array) : array;
  }
  if (!isPlainObject(value)) return structuredClone(value);
  const object: Record<string, unknown> = {};
  const filled = fillObject(object, value, freeze, depth);
  if (!freeze) return object;
  return filled ? Object.freeze(object) : EMPTY_OBJECT;
}

/** Fills `object` with copies of the keys of `value` (a plain object at `depth`); false when it has none. */
function fillObject(object: Record<string, unknown>, value: object, freeze: boolean, depth: number): boolean {
  let filled = false;
  for (const key in value) {
    // Own keys only: what a polluted Object.prototype carries is never copied in as data.
    if (ownOnly && !Object.hasOwn(value, key)) continue;
    filled = true;
    setOwnProperty(object, key, copyChild((value as Record<string, unknown>)[key], freeze, depth));
  }
  return filled;
}

/** The copy of a child of an array or object at `depth`: a primitive as it is, an object one level deeper. */
function copyChild(child: unknown, freeze: boolean, depth: number): unknown {
  return typeof child !== 'object' || child === null ? copyPrimitive(child) : copyNested(child, freeze, depth + 1);
}

/** `copyData` for what lies deeper than `MAX_RECURSION`: a walk with its own stack. */
function copyWalked(value: object, freeze: boolean): unknown {
  // The objects still to fill, and their copies, side by side (no pair allocated per object, #24).
  const sources: object[] = [];
  const targets: Target[] = [];
  const emptyCopy = freeze ? sharedEmptyCopy : ownEmptyCopy;
  const root = emptyCopy(value, sources, targets);
  while (sources.length > 0) {
    const source = sources.pop()!;
    const target = targets.pop()!;
    if (Array.isArray(source)) {
      const array = target as unknown[];
      for (let i = 0; i < source.length; i++) {
        const child: unknown = source[i];
        array.push(typeof child !== 'object' || child === null ? copyPrimitive(child) : emptyCopy(child, sources, targets));
      }
    } else {
      const object = target as Record<string, unknown>;
      for (const key in source as Record<string, unknown>) {
        if (ownOnly && !Object.hasOwn(source, key)) continue;
        const child = (source as Record<string, unknown>)[key];
        setOwnProperty(object, key, typeof child !== 'object' || child === null ? copyPrimitive(child) : emptyCopy(child, sources, targets));
      }
    }
    // Filled: its children are copies of their own (frozen when their turn comes), so freezing
    // the target now never freezes something another caller holds.
    if (freeze) Object.freeze(target);
  }
  return root;
}

/** A value that is no object as it is; a function or symbol makes `structuredClone` throw. */
function copyPrimitive<T>(value: T): T {
  if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
  return value;
}

type Target = Record<string, unknown> | unknown[];

/**
 * An empty array or plain object, queued to be filled from `value`; anything else that is an
 * object (a Date, a Map, a typed array) as a finished structured clone.
 */
function ownEmptyCopy(value: object, sources: object[], targets: Target[]): unknown {
  if (Array.isArray(value)) return queued(value, [], sources, targets);
  if (!isPlainObject(value)) return structuredClone(value);
  return queued(value, {}, sources, targets);
}

/**
 * `ownEmptyCopy` for frozen copies: an empty plain object or array is the shared frozen one, as no
 * one can tell it from a frozen copy of its own (every stored event has an empty state and artifact
 * delta: two objects fewer to make, freeze and keep per event, #24).
 */
function sharedEmptyCopy(value: object, sources: object[], targets: Target[]): unknown {
  if (Array.isArray(value)) return value.length === 0 ? EMPTY_ARRAY : queued(value, [], sources, targets);
  if (!isPlainObject(value)) return structuredClone(value);
  for (const key in value) if (!ownOnly || Object.hasOwn(value, key)) return queued(value, {}, sources, targets);
  return EMPTY_OBJECT;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `copy`, queued to be filled from `value`. */
function queued(value: object, copy: Target, sources: object[], targets: Target[]): Target {
  sources.push(value);
  targets.push(copy);
  return copy;
}

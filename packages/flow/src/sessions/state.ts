import { copyOwn, ownValue, setOwnProperty } from '../content/ownProperty.js';

/** Key prefixes that choose where a state value lives (spec TC-13). */
export const STATE_PREFIX = {
  /** Shared by every user and session of the app. */
  app: 'app:',
  /** Shared by the user's sessions of the app. */
  user: 'user:',
  /** Lives for the current invocation only; never persisted. */
  temp: 'temp:',
} as const;

/** Read access to state. */
export interface ReadonlyState {
  get<T = unknown>(key: string): T | undefined;
  has(key: string): boolean;
  /** A snapshot of every key, pending changes included. */
  toObject(): Record<string, unknown>;
}

/** Read and write access to state; writes are recorded as a delta and seen at once. */
export interface State extends ReadonlyState {
  set(key: string, value: unknown): void;
}

/**
 * State seen through a delta: reads take the delta first, then the session's state; writes go to
 * both, so later reads anywhere in the invocation see them before the event is saved (TC-10).
 */
export class DeltaState implements State {
  constructor(
    private readonly value: Record<string, unknown>,
    private readonly delta: Record<string, unknown>,
  ) {}

  get<T = unknown>(key: string): T | undefined {
    return (Object.hasOwn(this.delta, key) ? this.delta[key] : ownValue(this.value, key)) as T | undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.delta, key) || Object.hasOwn(this.value, key);
  }

  set(key: string, value: unknown): void {
    setOwnProperty(this.value, key, value);
    setOwnProperty(this.delta, key, value);
  }

  toObject(): Record<string, unknown> {
    const snapshot = copyOwn(this.value);
    for (const key of Object.keys(this.delta)) setOwnProperty(snapshot, key, this.delta[key]);
    return snapshot;
  }
}

/** A read-only view of a plain state object. */
export function readonlyState(value: Record<string, unknown>): ReadonlyState {
  return {
    get: <T>(key: string) => ownValue(value, key) as T | undefined,
    has: (key: string) => Object.hasOwn(value, key),
    toObject: () => copyOwn(value),
  };
}

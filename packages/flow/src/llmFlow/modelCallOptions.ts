import type { InvocationContext } from '../context/invocationContext.js';
import type { GenerateContentOptions } from '../model/model.js';

/**
 * The options of one model call. `signal` is an own, enumerable accessor: the run's signal is made
 * only when the model reads it (a scripted or cached model may never do, #24), and a wrapper that
 * spreads the options still passes it on. Two things here are for the garbage collector, which they
 * cost 1.4 MB of the young generation surviving each scavenge in a loop of turns: the getter is one
 * function for every call (a getter written in an object literal is a new function each time, and
 * V8 gives each such object a map of its own), and the run is held in a private field, not in a
 * WeakMap (whose entries the young-generation collector keeps until a full collection).
 */
class ModelCallOptions {
  readonly stream: boolean;
  declare readonly signal: AbortSignal;
  readonly #context: InvocationContext;

  constructor(context: InvocationContext) {
    this.stream = context.runConfig.streamingMode === 'sse';
    this.#context = context;
    Object.defineProperty(this, 'signal', SIGNAL);
  }

  static signalOf(options: ModelCallOptions): AbortSignal {
    return options.#context.signal;
  }
}

const SIGNAL: PropertyDescriptor = {
  get(this: ModelCallOptions) {
    return ModelCallOptions.signalOf(this);
  },
  enumerable: true,
  configurable: true,
};

export function modelCallOptions(context: InvocationContext): GenerateContentOptions {
  return new ModelCallOptions(context);
}

/**
 * Lets synchronous work run in slices: `due()` says when the current slice has lasted `sliceMs`;
 * then `next()` resolves after a turn of the event loop (`setImmediate`), so other requests are
 * served in between, and starts a new slice.
 */
export class TimeSlicer {
  private start = performance.now();

  constructor(private readonly sliceMs: number) {}

  /** Whether the current slice is used up. */
  due(): boolean {
    return performance.now() - this.start >= this.sliceMs;
  }

  /** Gives the event loop a turn and starts a new slice. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start = performance.now();
  }
}

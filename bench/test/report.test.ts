// report.mjs: RESULTS.md says the machine was busy only when it was before the run started; the
// load at the end is mostly the bench's own processes (#24: each bench runs in a process of its own).
import { describe, expect, it } from 'vitest';
import { markdownReport } from '../report.mjs';

const BUSY = '**The machine was busy with other work during this run**';
const report = (before: number, after: number) =>
  markdownReport({
    rows: [],
    claims: [],
    info: { date: '2026-12-02T00:00:00Z', cpu: 'test CPU', cores: 2, memory: '1 GB', os: 'linux', node: 'v20', commit: 'abc', dirty: false, load: [before, 0, 0] },
    loadAfter: [after, 0, 0],
    failures: [],
    durations: [],
    smoke: false,
    note: undefined,
  });

describe('RESULTS.md, the load', () => {
  it('gives both loads, the end one as including the bench itself', () => {
    expect(report(0.2, 1.8)).toContain("Load average (1 min) at the start 0.20, at the end 1.80 (the bench's own processes included), on 2 cores.");
  });

  it('calls the machine busy for a load before the run, not for the bench’s own at the end', () => {
    expect(report(0.2, 1.8)).not.toContain(BUSY);
    expect(report(1.6, 0.3)).toContain(BUSY);
  });
});

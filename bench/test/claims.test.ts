// claims.mjs: the runner turn's claim says what the turn's guarantees cost (turnCosts.bench.mjs)
// and whether the 6× goal would be met without them (#24). Synthetic rows, so that both outcomes
// and the missing cases are tried: no turnCosts bench, a turnCosts run without the peer.
import { describe, expect, it } from 'vitest';
import { evaluateClaims } from '../claims.mjs';

const us = (n: number) => ({ ns: n * 1000, samples: [n * 1000] });

function results({ turnCosts = true, peerInTurnCosts = true, unguarded = 20 } = {}) {
  const map = new Map<string, { rows: object[] }>();
  map.set('peerAdk', {
    rows: [
      { bench: 'peerAdk', id: 'turn.adkit', case: 'adkit turn', ...us(30) },
      { bench: 'peerAdk', id: 'turn.peer', case: 'peer turn', ...us(120) },
    ],
  });
  if (turnCosts)
    map.set('turnCosts', {
      rows: [
        { bench: 'turnCosts', id: 'turnCosts.turn', case: 'the whole turn', ...us(30) },
        { bench: 'turnCosts', id: 'turnCosts.piece.store', case: 'store isolation: copied and frozen', ...us(8), ratio: 8 / 30 },
        { bench: 'turnCosts', id: 'turnCosts.piece.ids', case: 'fresh random ids: the ids', ...us(30 - unguarded - 8), ratio: 0.01 },
        { bench: 'turnCosts', id: 'turnCosts.guarded', case: 'summed', ns: (30 - unguarded) * 1000, ratio: 0.3 },
        ...(peerInTurnCosts
          ? [
              { bench: 'turnCosts', id: 'turnCosts.peer', case: 'peer', ...us(150) },
              { bench: 'turnCosts', id: 'turnCosts.unguarded', case: 'without', ns: unguarded * 1000, ratio: unguarded / 30 },
            ]
          : []),
      ],
    });
  return map;
}

const turnClaim = (map: ReturnType<typeof results>) =>
  evaluateClaims(map).find((claim: { measure: string }) => claim.measure.startsWith('one function call through a whole runner turn'));

describe('the runner turn claim', () => {
  it('is missed at 4× and says the guarantees are what stands in the way when the turn without them is 6× faster', () => {
    const claim = turnClaim(results({ unguarded: 20 }));
    expect(claim.status).toBe('missed');
    expect(claim.guarantees).toContain('store isolation 8.00 µs (26.7%)');
    expect(claim.guarantees).toContain('Without it the turn would take 20.00 µs, 7.50× faster');
    expect(claim.guarantees).toContain('the 6× goal is missed on these guarantees');
  });

  it("says the flow's own work stands in the way when the turn without its guarantees is still short of 6×", () => {
    const claim = turnClaim(results({ unguarded: 26 }));
    expect(claim.guarantees).toContain('5.77× faster');
    expect(claim.guarantees).toContain("missed on the flow's own work as well");
  });

  it('says nothing of the guarantees when turnCosts did not run, or ran without the peer', () => {
    expect(turnClaim(results({ turnCosts: false })).guarantees).toBeUndefined();
    expect(turnClaim(results({ peerInTurnCosts: false })).guarantees).toBeUndefined();
  });
});

describe('the validated call claims', () => {
  const ns = (n: number) => ({ ns: n, samples: [n] });
  const calls = (floor: number, peer = 1000, results = floor - 30) =>
    evaluateClaims(
      new Map([
        [
          'functionTool',
          {
            rows: [
              { bench: 'functionTool', id: 'toolCall.adkit', case: 'adkit', ...ns(260) },
              { bench: 'functionTool', id: 'toolCall.peer', case: 'peer', ...ns(peer) },
              { bench: 'functionTool', id: 'toolCall.bare', case: 'bare', ...ns(140) },
              { bench: 'functionTool', id: 'toolCall.floor', case: 'floor', ...ns(floor) },
              { bench: 'functionTool', id: 'toolCall.results', case: 'results', ...ns(results) },
            ],
          },
        ],
      ]),
    ).filter((claim: { measure: string }) => claim.measure.startsWith('validated 5-field'));

  it('say the guarantees alone exceed the bound when the floor does', () => {
    const [peer, bare] = calls(230);
    expect(peer.status).toBe('missed');
    expect(peer.guarantees).toContain("took 230.0 ns in the same rounds; the goal allows 250.0 ns (a quarter of @google/adk's call)");
    expect(peer.guarantees).toContain('That leaves 20.0 ns for the rest of the call');
    expect(bare.guarantees).toContain('the goal allows 210.0 ns (1.5× the bare call)');
    expect(bare.guarantees).toContain('Those guarantees alone exceed it, so the goal cannot be met while they run.');
  });

  it('say the call itself is what is over when the floor is well within', () => {
    const [peer, bare] = calls(180, 1200);
    expect(peer.status).toBe('met');
    expect(bare.guarantees).toContain('That leaves 30.0 ns for the rest of the call');
  });

  it('split the floor into what FT-5 and FT-4 each cost', () => {
    const [peer, bare] = calls(230, 1000, 190);
    for (const claim of [peer, bare])
      expect(claim.guarantees).toContain("Of the floor's 90.0 ns over the bare call, FT-5's reaction took 50.0 ns (the handler with the reaction alone: 190.0 ns) and FT-4's strict check 40.0 ns.");
  });
});

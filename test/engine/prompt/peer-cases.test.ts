// The screen cases of other agent managers' detector tests (test/fixtures/peer-cases/), as a check
// the rules were not written against case by case: corral must agree with the peer's expected state
// on most of them, call no working agent stuck, and give the verdict and reason written in
// disagreements.json for every case it disagrees with, so no disagreement goes unexplained.

import { describe, expect, it } from 'vitest';
import { isFalseStuck, readDisagreements, readPeerCases } from '../../../scripts/agents/peer-check.mjs';
import { classifyScreen } from '../../../src/engine/prompt/matcher.js';

const cases = readPeerCases();
const disagreements = readDisagreements();
const documented = new Map(disagreements.map((d) => [d.ref, d]));
const kindOf = (lines: string[]) => {
  const v = classifyScreen(lines);
  return v.prompt ? (v.reason as string) : v.busy ? 'busy' : 'none';
};

/** The share of peer cases corral must agree with. */
const AGREEMENT_FLOOR = 0.9;

describe('peer cases', () => {
  it('are there, from the three peers, each with a reference and an expectation', () => {
    expect(new Set(cases.map((c) => c.peer))).toEqual(new Set(['ccmanager', 'agent-of-empires', 'agent-deck']));
    expect(cases.length).toBeGreaterThan(400);
    expect(new Set(cases.map((c) => c.ref)).size).toBe(cases.length);
    for (const c of cases) expect(c.agrees.length, c.ref).toBeGreaterThan(0);
  });

  for (const c of cases) {
    const d = documented.get(c.ref);
    it(`${c.ref}${d ? ' (documented disagreement)' : ''}`, () => {
      const kind = kindOf(c.lines);
      expect(isFalseStuck(c, kind), `${c.ref}: a working agent called stuck (${kind})`).toBe(false);
      if (d) expect(kind, `${c.ref}: ${d.reason}`).toBe(d.corral);
      else expect(c.agrees, `${c.ref}: ${JSON.stringify(classifyScreen(c.lines))}`).toContain(kind);
    });
  }

  it(`agree on at least ${AGREEMENT_FLOOR * 100}% of the cases`, () => {
    const agree = cases.filter((c) => c.agrees.includes(kindOf(c.lines))).length;
    expect(agree / cases.length).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
  });

  it('document each disagreement once, for a case that exists, with a reason', () => {
    const refs = new Set(cases.map((c) => c.ref));
    expect(documented.size).toBe(disagreements.length);
    for (const d of disagreements) {
      expect(refs.has(d.ref), `disagreement for a missing case: ${d.ref}`).toBe(true);
      expect(d.reason.length, d.ref).toBeGreaterThan(40);
    }
  });
});

// corral's verdicts on the peers' screen cases (test/fixtures/peer-cases/, written by
// peer-cases.mjs): how many agree with the peer's expectation, how many would call a working agent
// stuck, and the documented disagreements (disagreements.json). Used by the peer-cases test, the
// README's generated table and the prompt bench.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PEER_CASES_DIR } from './peer-cases.mjs';

export const PEERS = ['ccmanager', 'agent-of-empires', 'agent-deck'];
export const DISAGREEMENTS_FILE = join(PEER_CASES_DIR, 'disagreements.json');

const kindOf = (verdict) => (verdict.prompt ? verdict.reason : verdict.busy ? 'busy' : 'none');

/** Every peer case: { peer, ref, tool, peerState, expect, agrees, lines }. */
export function readPeerCases(dir = PEER_CASES_DIR) {
  return PEERS.flatMap((peer) => {
    const file = join(dir, `${peer}.json`);
    if (!existsSync(file)) return [];
    const data = JSON.parse(readFileSync(file, 'utf8'));
    return data.cases.map((c) => ({ peer, ...c }));
  });
}

export function readDisagreements(file = DISAGREEMENTS_FILE) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).disagreements : [];
}

/**
 * A working agent called stuck: the peer says it is busy (or shows no prompt) and corral says it
 * waits for a person.
 */
export const isFalseStuck = (c, kind) =>
  (c.expect === 'busy' || c.expect === 'no-prompt') && (kind === 'permission' || kind === 'stopped');

/** Per case: its verdict kind, whether it agrees, whether it is a false stuck. */
export function judge(cases, classify) {
  return cases.map((c) => {
    const kind = kindOf(classify(c.lines));
    return { ...c, kind, agrees: c.agrees.includes(kind), falseStuck: isFalseStuck(c, kind) };
  });
}

const pct = (n, d) => `${((100 * n) / d).toFixed(1)}%`;

/** The README table: per peer, cases, agreement and false stuck; then the reasons for the rest. */
export function peerMarkdown(classify) {
  const judged = judge(readPeerCases(), classify);
  const rows = PEERS.map((peer) => {
    const mine = judged.filter((j) => j.peer === peer);
    const agree = mine.filter((j) => j.agrees).length;
    return `| ${peer} | ${mine.length} | ${agree} (${pct(agree, mine.length)}) | ${mine.filter((j) => j.falseStuck).length} |`;
  });
  const agree = judged.filter((j) => j.agrees).length;
  const reasons = new Map();
  for (const d of readDisagreements()) reasons.set(d.reason, (reasons.get(d.reason) ?? 0) + 1);
  return [
    '| peer | cases | corral agrees | false stuck |',
    '|---|---:|---:|---:|',
    ...rows,
    `| **all** | ${judged.length} | ${agree} (${pct(agree, judged.length)}) | ${judged.filter((j) => j.falseStuck).length} |`,
    '',
    '| disagreements | why |',
    '|---:|---|',
    ...[...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `| ${n} | ${reason.replace(/\|/g, '\\|')} |`),
  ].join('\n');
}

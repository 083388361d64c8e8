// The README's coverage table: for each agent, how corral knows each state it can be in
// (permission, stopped, busy): recorded (real screens in test/fixtures/recorded/), written (rules
// from the agent's docs, its source, or the peers' cases, checked on hand-written or peer screens
// only) or none, with how many of those screens the rules get right.

import { readHandWritten, readRecorded } from './accuracy.mjs';
import { readFilms } from './films.mjs';
import { RECORDED_DIR } from './recorded-fixtures.mjs';
import { judge, readPeerCases } from './peer-check.mjs';

/**
 * The agents, how they are reached offline, and the names the peers give them. `offline` says
 * whether the recorder runs them against the scripted model, and if not, why.
 */
export const COVERED_AGENTS = [
  { tool: 'claude-code', name: 'Claude Code', peers: ['claude'], offline: 'yes' },
  { tool: 'codex', name: 'Codex CLI', peers: ['codex'], offline: 'yes' },
  { tool: 'gemini-cli', name: 'Gemini CLI', peers: ['gemini'], offline: 'yes' },
  { tool: 'qwen-code', name: 'Qwen Code', peers: ['qwen'], offline: 'yes' },
  { tool: 'opencode', name: 'opencode', peers: ['opencode'], offline: 'yes' },
  {
    tool: 'kilo',
    name: 'Kilo Code CLI',
    peers: [],
    offline: 'yes (an opencode fork: a provider in `~/.config/kilo/kilo.json`)',
  },
  {
    tool: 'pi',
    name: 'pi',
    peers: ['pi'],
    offline: 'yes (a provider in `~/.pi/agent/models.json`); it asks no approvals',
  },
  {
    tool: 'copilot',
    name: 'GitHub Copilot CLI',
    peers: ['copilot', 'github-copilot'],
    offline: 'no: needs a GitHub sign-in; first run recorded',
  },
  {
    tool: 'cline',
    name: 'Cline CLI',
    peers: ['cline'],
    offline: 'first run only: its own-provider path was not driven',
  },
  { tool: 'amp', name: 'Amp', peers: [], offline: 'no: needs an Amp account; first run recorded' },
  {
    tool: 'droid',
    name: 'Factory droid',
    peers: ['droid'],
    offline: 'no: needs a Factory sign-in; first run recorded',
  },
  {
    tool: 'continue',
    name: 'Continue CLI',
    peers: [],
    offline: 'first run only: asks for a key or a Continue sign-in',
  },
  { tool: 'auggie', name: 'Auggie', peers: [], offline: 'no: needs an Augment sign-in (browser); first run recorded' },
  { tool: 'aider', name: 'aider', peers: [], offline: 'yes, from its source with local Python packages and stand-ins for the missing ones (`scripts/agents/aider/record-aider.mjs`, apart from `npm run record:agents`)' },
  {
    tool: 'cursor',
    name: 'Cursor CLI',
    peers: ['cursor'],
    offline: "not recorded: not on npm (a vendor install script); peers' cases only",
  },
];

const STATES = ['permission', 'stopped', 'busy'];
/** The peer expectations that speak for each state. */
const PEER_STATES = { permission: ['waiting'], stopped: ['idle', 'waiting-or-idle-prompt', 'prompt'], busy: ['busy'] };

const frac = (xs) => `${xs.filter(Boolean).length}/${xs.length}`;

export function coverageMarkdown(classify) {
  const kind = (lines, context) => {
    const v = classify(lines, context);
    return v.prompt ? v.reason : v.busy ? 'busy' : 'none';
  };
  const recorded = readRecorded();
  const written = readHandWritten();
  const peers = judge(readPeerCases(), (lines) => classify(lines, {}));
  const cell = (agent, state) => {
    const rec = recorded.filter((f) => f.tool === agent.tool && f.label === state);
    if (rec.length > 0) return `recorded ${frac(rec.map((f) => kind(f.lines, f.context) === f.label))}`;
    const hand = written.filter((f) => f.tool === agent.tool && f.label === state);
    const peer = peers.filter((c) => agent.peers.includes(c.tool) && PEER_STATES[state].includes(c.expect));
    if (hand.length + peer.length === 0) return 'none';
    const parts = [];
    if (hand.length > 0) parts.push(`screens ${frac(hand.map((f) => kind(f.lines, f.context) === f.label))}`);
    if (peer.length > 0) parts.push(`peers ${frac(peer.map((c) => c.agrees))}`);
    return `written (${parts.join(', ')})`;
  };
  const films = readFilms(RECORDED_DIR);
  const filmed = (agent) => {
    const names = films.filter((f) => f.tool === agent.tool).map((f) => f.name).sort();
    return names.length > 0 ? names.join(', ') : '–';
  };
  return [
    '| agent | permission | stopped | busy | films | runs offline |',
    '|---|---|---|---|---|---|',
    ...COVERED_AGENTS.map((a) => `| ${a.name} | ${STATES.map((s) => cell(a, s)).join(' | ')} | ${filmed(a)} | ${a.offline} |`),
  ].join('\n');
}

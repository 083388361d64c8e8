// Prompt matcher: false positives on ordinary output, prompts found on the tool fixtures, and
// classification time per screen, for the default and the seed pack. Reads the same fixtures as the
// tests (test/fixtures/screens/<tool>/<expect>--<name>.txt, the recorded screens of
// test/fixtures/recorded/ and test/fixtures/logs/*.txt).

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildRules, classifyScreen } from '../dist/engine/prompt/matcher.js';
import { kindOf, readExceptions, readHandWritten, readRecorded } from '../scripts/agents/accuracy.mjs';
import { isFalseStuck, readPeerCases } from '../scripts/agents/peer-check.mjs';

export const title = 'Prompt detection';

const LOGS = new URL('../test/fixtures/logs/', import.meta.url).pathname;
const LOG_SCREEN_HEIGHT = 24;
const PACKS = ['default', 'seed'];

const linesOf = (text) => text.replace(/\n$/, '').split('\n');

/** The hand-written fixtures: { tool, expect, lines }. */
const toolFixtures = () => readHandWritten().map((f) => ({ tool: f.tool, expect: f.label, lines: f.lines }));

function logScreens() {
  return readdirSync(LOGS)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => {
      const lines = linesOf(readFileSync(join(LOGS, f), 'utf8'));
      return lines.flatMap((line, i) =>
        line.trim() === '' ? [] : [lines.slice(Math.max(0, i + 1 - LOG_SCREEN_HEIGHT), i + 1)],
      );
    });
}

/**
 * Mean classification cost per screen in µs of CPU time (user + system), over repeated passes for
 * about `budgetMs` of wall time. CPU time rather than wall time, so other load on the machine
 * inflates the figure less.
 */
function timePerScreen(screens, rules, budgetMs = 1500, classify = classifyScreen) {
  for (let i = 0; i < 3; i++) for (const s of screens) classify(s.lines ?? s, rules, s.context); // warm up
  let passes = 0;
  const wallStart = Date.now();
  const cpuStart = process.cpuUsage();
  while (Date.now() - wallStart < budgetMs) {
    for (const s of screens) classify(s.lines ?? s, rules, s.context);
    passes++;
  }
  const cpu = process.cpuUsage(cpuStart);
  return (cpu.user + cpu.system) / (passes * screens.length);
}

export async function run(log) {
  const fixtures = toolFixtures();
  const prompts = fixtures.filter((f) => f.expect === 'permission' || f.expect === 'stopped');
  const logs = logScreens();
  const recorded = readRecorded();
  const all = [...logs, ...fixtures.map((f) => f.lines), ...recorded];
  log(
    `${logs.length} log screens, ${fixtures.length} tool fixtures (${prompts.length} prompts), ${recorded.length} recorded screens`,
  );

  const rows = [];
  const perTool = new Map();
  for (const pack of PACKS) {
    const rules = buildRules({ pack, patterns: [] });
    const falsePositives = logs.filter((s) => classifyScreen(s, rules).prompt).length;
    const found = prompts.filter((f) => classifyScreen(f.lines, rules).prompt);
    const exact = fixtures.filter((f) => {
      const v = classifyScreen(f.lines, rules);
      return f.expect === 'busy'
        ? v.busy && !v.prompt
        : f.expect === 'none'
          ? !v.prompt && !v.busy
          : v.prompt && v.reason === f.expect;
    }).length;
    for (const f of found) perTool.set(`${f.tool}/${pack}`, (perTool.get(`${f.tool}/${pack}`) ?? 0) + 1);
    const us = timePerScreen(all, rules);
    const recordedRight = recorded.filter((f) => kindOf(classifyScreen(f.lines, rules, f.context)) === f.label).length;
    const falseStuck = recorded.filter(
      (f) => (f.label === 'busy' || f.label === 'none') && classifyScreen(f.lines, rules, f.context).prompt,
    ).length;
    log(
      `${pack}: ${falsePositives} false positives, ${found.length}/${prompts.length} prompts, ${recordedRight}/${recorded.length} recorded right (${falseStuck} false stuck), ${us.toFixed(2)} µs/screen`,
    );
    const pct = (n, d) => `${((100 * n) / d).toFixed(1)}%`;
    rows.push(
      `| ${pack} | ${logs.length} | ${falsePositives} (${pct(falsePositives, logs.length)}) | ${found.length}/${prompts.length} | ${exact}/${fixtures.length} | ${recordedRight}/${recorded.length} (${pct(recordedRight, recorded.length)}), ${falseStuck} false stuck | ${us.toFixed(1)} |`,
    );
  }

  // The peers' cases (test/fixtures/peer-cases/): agreement and false stuck, default pack.
  const peers = readPeerCases();
  const peerKinds = peers.map((c) => kindOf(classifyScreen(c.lines)));
  const peerAgree = peers.filter((c, i) => c.agrees.includes(peerKinds[i])).length;
  const peerStuck = peers.filter((c, i) => isFalseStuck(c, peerKinds[i])).length;
  log(`peer cases: ${peerAgree}/${peers.length} agree, ${peerStuck} false stuck`);

  // Side by side with another build of the matcher (PROMPT_BASELINE=<its dist/engine/prompt/matcher.js>),
  // alternating, in this process, on the same screens: the cost ratio holds under a changing load.
  let baselineRows = [];
  if (process.env.PROMPT_BASELINE) {
    const baseline = await import(process.env.PROMPT_BASELINE);
    const baseRules = baseline.buildRules({ pack: 'default', patterns: [] });
    const rules = buildRules({ pack: 'default', patterns: [] });
    const mine = [];
    const theirs = [];
    for (let round = 0; round < 3; round++) {
      theirs.push(timePerScreen(all, baseRules, 1000, baseline.classifyScreen));
      mine.push(timePerScreen(all, rules, 1000));
    }
    const best = (xs) => Math.min(...xs);
    const basePeers = peers.filter((c) => c.agrees.includes(kindOf(baseline.classifyScreen(c.lines)))).length;
    const baseStuck = peers.filter((c) => isFalseStuck(c, kindOf(baseline.classifyScreen(c.lines)))).length;
    const baseRecorded = recorded.filter(
      (f) => kindOf(baseline.classifyScreen(f.lines, baseRules, f.context)) === f.label,
    ).length;
    log(
      `baseline: ${best(theirs).toFixed(2)} µs/screen, this build ${best(mine).toFixed(2)} µs/screen (ratio ${(best(mine) / best(theirs)).toFixed(2)})`,
    );
    baselineRows = [
      '',
      `Side by side with the baseline build (\`PROMPT_BASELINE\`), best of three 1 s rounds each, alternating, on the same ${all.length} screens:`,
      '',
      '| matcher | CPU µs per screen | peer cases agreed | false stuck on peer cases | recorded screens right |',
      '|---|---:|---:|---:|---:|',
      `| baseline | ${best(theirs).toFixed(1)} | ${basePeers}/${peers.length} | ${baseStuck} | ${baseRecorded}/${recorded.length} |`,
      `| this build | ${best(mine).toFixed(1)} (×${(best(mine) / best(theirs)).toFixed(2)}) | ${peerAgree}/${peers.length} | ${peerStuck} | ${recorded.filter((f) => kindOf(classifyScreen(f.lines, rules, f.context)) === f.label).length}/${recorded.length} |`,
    ];
  }

  const bySize = perAgentAndSize(recorded, buildRules({ pack: 'default', patterns: [] }), log);

  const tools = [...new Set(prompts.map((f) => f.tool))].sort();
  const toolRows = tools.map((tool) => {
    const n = prompts.filter((f) => f.tool === tool).length;
    return `| ${tool} | ${n} | ${PACKS.map((p) => perTool.get(`${tool}/${p}`) ?? 0).join(' | ')} |`;
  });

  return [
    'Log screens: every non-empty line of `test/fixtures/logs/*.txt` (npm, cargo, pytest, make, git, docker,',
    `webpack, server and CI logs, lines ending in \`:\` \`...\` \`>\` \`#\` \`?\` or holding \`@\`) at the bottom of a ${LOG_SCREEN_HEIGHT}-line screen;`,
    'a prompt found there is a false positive. Tool fixtures: `test/fixtures/screens/<tool>/*.txt`. Recorded screens:',
    `\`test/fixtures/recorded/\` (${readExceptions().length} documented exceptions count as wrong here). CPU time is over all of them.`,
    '',
    '| pack | log screens | false positives | fixture prompts found | fixture verdicts exact (prompt, reason, busy) | recorded screens right | CPU µs per screen |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `| tool | prompt fixtures | found by ${PACKS.join(' | found by ')} |`,
    `|---|---|${PACKS.map(() => '---').join('|')}|`,
    ...toolRows,
    ...baselineRows,
    '',
    'Recorded screens per agent and size, default pack: right / screens (false stuck, when any), and CPU µs per screen',
    'over that agent\'s screens at that size (one 300 ms pass each, so single figures move by a µs or two):',
    '',
    ...bySize,
  ].join('\n');
}

/** Per recorded agent and size: how many screens the default rules get right, false stuck, and µs per screen. */
function perAgentAndSize(recorded, rules, log) {
  const sizes = [...new Set(recorded.map((f) => f.size))].sort((a, b) => Number(a.split('x')[0]) - Number(b.split('x')[0]));
  const tools = [...new Set(recorded.map((f) => f.tool))].sort();
  const rows = tools.map((tool) => {
    const cells = sizes.map((size) => {
      const screens = recorded.filter((f) => f.tool === tool && f.size === size);
      if (screens.length === 0) return '–';
      const right = screens.filter((f) => kindOf(classifyScreen(f.lines, rules, f.context)) === f.label).length;
      const falseStuck = screens.filter((f) => (f.label === 'busy' || f.label === 'none') && classifyScreen(f.lines, rules, f.context).prompt).length;
      const us = timePerScreen(screens, rules, 300);
      return `${right}/${screens.length}${falseStuck ? ` (${falseStuck} false stuck)` : ''} · ${us.toFixed(1)} µs`;
    });
    log(`${tool}: ${cells.join(', ')}`);
    return `| ${tool} | ${cells.join(' | ')} |`;
  });
  return [`| agent | ${sizes.join(' | ')} |`, `|---|${sizes.map(() => '---:').join('|')}|`, ...rows];
}

// Exit paths: the dashboard, `serve --attach` and `watch`, each ended 20 times by SIGKILL, SIGHUP,
// SIGTERM, by closing the terminal pane it runs in, and by SIGKILL after it hung, watching a local tmux server and then also
// one over ssh, with output flowing on every control client. Counts what outlives corral: control
// clients, processes, ssh master folders, and whether the next corral clears what a SIGKILL left.

import { COMMANDS, ENDINGS, startExitRig } from './lib/exit-rig.mjs';

export const title = 'Exit paths: what is left after corral ends (20 rounds of each way)';

const ROUNDS = Number(process.env.BENCH_EXITS_ROUNDS ?? 20);

function spread(values) {
  if (values.length === 0) return '–';
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[Math.floor(sorted.length / 2)]} / ${sorted.at(-1)}`;
}

async function measure(remote, log) {
  const rig = await startExitRig({ remote });
  const results = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const command of COMMANDS) {
        for (const ending of ENDINGS) results.push(await rig.run(command, ending));
      }
      log(`${remote ? 'with an ssh host' : 'local'}: round ${round + 1} of ${ROUNDS}`);
    }
    rig.sweep();
    return { results, residue: rig.residue() };
  } finally {
    await rig.dispose();
  }
}

function rows(where, { results }) {
  const lines = [];
  for (const command of COMMANDS) {
    for (const ending of ENDINGS) {
      const runs = results.filter((r) => r.command === command && r.ending === ending);
      const next = results.map((r, i) => [r, results[i + 1]]).filter(([r, after]) => r.command === command && r.ending === ending && after);
      const cleared = next.filter(([, after]) => after.staleAtStart.folders.length === 0 && after.staleAtStart.masters === 0).length;
      lines.push(
        `| ${where} | ${command} | ${ending} | ${runs.length} | ${spread(runs.map((r) => r.exitMs))} | ${spread(runs.filter((r) => r.cleanMs !== null).map((r) => r.cleanMs))} | ` +
          `${runs.filter((r) => r.cleanMs === null).length} | ${Math.max(...runs.map((r) => r.clients))} | ${Math.max(...runs.map((r) => r.processes.length))} | ` +
          `${runs.filter((r) => r.masters > 0).length} | ${runs.filter((r) => r.ownFolder).length} | ${cleared}/${next.length} |`,
      );
    }
  }
  return lines;
}

export async function run(log) {
  const local = await measure(false, log);
  const remote = await measure(true, log);
  const leftovers = [...local.results, ...remote.results].filter((r) => r.cleanMs === null || r.processes.length > 0);
  return [
    '| watching | command | ending | runs | corral gone, ms (p50 / max) | nothing left, ms (p50 / max) | runs not clean within 5 s | control clients left (max) | processes left (max) | idle ssh master left | own folder left | next start cleared it |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows('local', local),
    ...rows('local + ssh host', remote),
    '',
    `After the last round and one \`corral ls\` (a starting corral clears what killed ones left): local ${JSON.stringify(local.residue)}, with the ssh host ${JSON.stringify(remote.residue)}.`,
    ...(leftovers.length > 0 ? ['', 'Runs that left something:', ...leftovers.map((r) => `- ${r.command} ${r.ending}: ${JSON.stringify(r)}`)] : []),
  ].join('\n');
}

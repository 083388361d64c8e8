// The fleet bench's second part: prompt shown → stuck event (`corral watch`) and → dashboard row
// (`corral dashboard`), for panes here and over ssh, before, during and after one host's outage
// (its sshd and every session it held killed, then started again on the same port).
//   BENCH_FLEET_THRESHOLD_MS (1000): the quiet threshold both run with.

import { startDashboardPane, startWatch, waitFor } from './fleet-watchers.mjs';

const THRESHOLD = Number(process.env.BENCH_FLEET_THRESHOLD_MS ?? 1_000);
const TIMEOUT_MS = 30_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Each phase: the local host three times, the eight healthy boxes once each (box-9 is the one lost). */
const PHASE_HOSTS = ['local', 'box-1', 'box-2', 'local', 'box-3', 'box-4', 'box-5', 'local', 'box-6', 'box-7', 'box-8'];

/** The probe panes (`exec cat`, window named probe) of every host, by host: [{ window, paneId }]. */
function probes(fleet, isProbe) {
  const byHost = new Map();
  fleet.servers.forEach((server, k) => {
    const listed = server.tmux('list-panes', '-a', '-F', '#{window_index} #{pane_id}').trim().split('\n');
    const found = listed.map((l) => l.split(' ')).filter(([w]) => isProbe(Number(w)));
    // Named, so that the dashboard's filter keeps just them (in view on a 40-line screen).
    for (const [, id] of found) server.tmux('rename-window', '-t', id, 'probe');
    byHost.set(fleet.name(k), found.map(([w, id]) => ({ window: Number(w), paneId: id })));
  });
  return byHost;
}

/** A line of the dashboard with the pane's row stuck: `STUCK ... bench:14.0 on box-1` (here, no `on`). */
function rowPattern(host, window) {
  return host === 'local' ? new RegExp(`STUCK.*\\sbench:${window}\\.0 (?!on )`) : new RegExp(`STUCK.*\\sbench:${window}\\.0 on ${host} `);
}

/** Types a prompt into a probe pane; resolves with the ms until the stuck event and the dashboard row. */
async function trial(fleet, watch, dash, host, probe, n) {
  const server = fleet.servers[host === 'local' ? 0 : Number(host.slice(4))];
  const key = host === 'local' ? probe.paneId : `${host}/${probe.paneId}`;
  const row = rowPattern(host, probe.window);
  const t0 = performance.now();
  server.tmux('send-keys', '-t', probe.paneId, '-l', `Deploy probe ${n} to production? [y/N] `);
  const [event, shown] = await Promise.all([
    watch.next((e) => e.type === 'stuck' && e.key === key, t0, TIMEOUT_MS),
    waitFor(() => (row.test(dash.screen()) ? performance.now() : null), TIMEOUT_MS, 40),
  ]);
  // Enter answers it (cat echoes the line): the pane leaves the waiting list, which stays in view.
  server.tmux('send-keys', '-t', probe.paneId, 'Enter');
  return { host, eventMs: event ? event.readAt - t0 : null, rowMs: shown ? shown - t0 : null };
}

async function runPhase(fleet, watch, dash, free, phase, log) {
  const results = [];
  for (const host of PHASE_HOSTS) {
    const probe = free.get(host).shift();
    const result = { phase, ...(await trial(fleet, watch, dash, host, probe, results.length)) };
    log(`${phase}: ${host} stuck event ${result.eventMs?.toFixed(0) ?? 'missed'} ms, row ${result.rowMs?.toFixed(0) ?? 'missed'} ms`);
    results.push(result);
    await sleep(500 + Math.random() * 1_000);
  }
  return results;
}

/** Kills box-K's sshd (and its sessions), runs the `during` trials, starts it again; times each step. */
async function outage(fleet, k, watch, dash, free, log) {
  const host = fleet.name(k);
  const ofHost = (e) => e.key?.startsWith(`${host}/`);
  const panes = watch.events.filter((e) => e.type === 'registered' && ofHost(e)).length;
  // The dashboard's header line (always in view) counts the panes of a host that is down apart.
  const header = (test) => waitFor(() => (test(dash.screen().split('\n')[0] ?? '') ? performance.now() : null), 120_000, 100);
  const t0 = performance.now();
  await fleet.sshds[k - 1].stop();
  const shownDown = header((line) => line.includes(`· ${panes} offline`));
  const ended = await waitFor(() => watch.events.filter((e) => e.readAt >= t0 && e.type === 'ended' && ofHost(e)).length >= panes && performance.now(), 60_000, 50);
  const downRow = await shownDown;
  log(`${host} down: ${panes} panes ended after ${((ended - t0) / 1000).toFixed(1)} s`);
  const during = await runPhase(fleet, watch, dash, free, 'during', log);
  const t1 = performance.now();
  await fleet.sshds[k - 1].start();
  const shownUp = header((line) => !line.includes('offline'));
  const back = await waitFor(() => watch.events.filter((e) => e.readAt >= t1 && e.type === 'registered' && ofHost(e)).length >= panes && performance.now(), 120_000, 50);
  const upRow = await shownUp;
  log(`${host} back: ${panes} panes registered after ${back ? ((back - t1) / 1000).toFixed(1) : 'never'} s`);
  const seconds = (t, from) => (t ? ((t - from) / 1000).toFixed(1) : 'never');
  return { host, panes, downFor: (t1 - t0) / 1000, ended: seconds(ended, t0), downRow: seconds(downRow, t0), back: seconds(back, t1), upRow: seconds(upRow, t1), during };
}

const quantile = (xs, q) => (xs.length === 0 ? null : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]);

function stats(results, field) {
  const values = results.map((r) => r[field]).filter((v) => v !== null);
  const missed = results.length - values.length;
  const f = (v) => (v === null ? '-' : v.toFixed(0));
  return `${f(quantile(values, 0.5))} / ${f(quantile(values, 0.95))} / ${f(values.length ? Math.max(...values) : null)}${missed ? ` (${missed} missed)` : ''}`;
}

function report(all, down) {
  const byPane = [
    ['here (local)', all.filter((r) => r.host === 'local')],
    ['over ssh (box-1 to box-8)', all.filter((r) => r.host !== 'local')],
  ];
  const byPhase = ['before', 'during', 'after'].map((phase) => [phase, all.filter((r) => r.phase === phase)]);
  return [
    `Latency: a prompt typed into an idle pane (\`cat\`) → \`corral watch\` prints its \`stuck\` event, and → \`corral dashboard\` (120x40, filtered to the probe panes so their rows are in view) draws its row STUCK; both watch all ${'500'} panes at the default 2 s poll with a ${THRESHOLD} ms quiet threshold (included in every figure). ms, p50 / p95 / max.`,
    '',
    '| pane | trials | prompt → stuck event | prompt → dashboard row |',
    '|---|---:|---:|---:|',
    ...byPane.map(([label, rs]) => `| ${label} | ${rs.length} | ${stats(rs, 'eventMs')} | ${stats(rs, 'rowMs')} |`),
    '',
    `One host lost and back: ${down.host}'s sshd and every session it held killed, ${down.downFor.toFixed(0)} s later started again on the same port. Its ${down.panes} panes ended (\`why: host-gone\`) ${down.ended} s after the kill (the dashboard counted them offline after ${down.downRow} s), and were all registered again ${down.back} s after the restart (the dashboard listed them online again after ${down.upRow} s; the wait is corral's retry backoff, 1 s doubling). The other hosts meanwhile:`,
    '',
    '| phase | trials | prompt → stuck event | prompt → dashboard row |',
    '|---|---:|---:|---:|',
    ...byPhase.map(([phase, rs]) => `| ${phase} | ${rs.length} | ${stats(rs, 'eventMs')} | ${stats(rs, 'rowMs')} |`),
  ].join('\n');
}

/** Runs the latency trials and the outage over a started fleet; returns Markdown. */
export async function runTrials(fleet, isProbe, log) {
  const free = probes(fleet, isProbe);
  const flags = ['--quiet-threshold', String(THRESHOLD)];
  const watch = startWatch(fleet, flags);
  const dash = startDashboardPane(fleet, flags);
  try {
    const total = fleet.servers.length * (fleet.servers[0].tmux('list-panes', '-a').trim().split('\n').length);
    const listed = await waitFor(() => dash.screen().includes(`${total} total`), 120_000, 250);
    if (!listed) throw new Error(`the dashboard did not list ${total} panes within 2 minutes:\n${dash.screen()}`);
    dash.keys('/', 'probe', 'Enter');
    await sleep(3_000);
    const before = await runPhase(fleet, watch, dash, free, 'before', log);
    const down = await outage(fleet, fleet.servers.length - 1, watch, dash, free, log);
    await sleep(2_000);
    const after = await runPhase(fleet, watch, dash, free, 'after', log);
    return report([...before, ...down.during, ...after], down);
  } finally {
    await dash.stop();
    await watch.stop();
  }
}

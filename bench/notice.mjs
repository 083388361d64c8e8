// Time to notice: from a prompt drawn in a pane to each surface that says the pane waits, with the
// default settings and no hooks. Ten hosts: a tmux server here and nine over ssh (each its own tmux
// server behind its own sshd on a loopback port), every one watched by each corral process; the
// trials over ssh take the remote hosts in turn. Each has shell panes (bash, PS1 `$ `) where a
// trial draws one of two kinds of wait:
//   ask:     `read -p 'Deploy N to production? [y/N] '` (a question; drawn when bash runs read)
//   stopped: `sleep 1; echo built-N` (work, then the prompt back: drawn when `built-N` shows)
// Surfaces: the `stuck` event of `corral watch`, the pane's `@corral_state` option (the status line
// reads it), the pane's row in `corral dashboard` (a 120x40 pane of a tmux server of its own) and
// the pane stuck in the list the attach page reads from `corral serve --attach` (its event stream).
// A fast capture loop (every 20 ms) finds the moment the wait is drawn.
//   BENCH_NOTICE_TRIALS (10 here and 10 over ssh, per kind), BENCH_NOTICE_HOSTS (10: one here, the
//   rest over ssh), BENCH_NOTICE_FLAGS (extra flags for every corral process).

import { startFleetHosts } from './lib/fleet-hosts.mjs';
import { startDashboardPane, startPageFeed, startWatch, waitFor } from './lib/fleet-watchers.mjs';

export const title = 'Time to notice: prompt drawn to each surface (defaults, no hooks)';

const TRIALS = Number(process.env.BENCH_NOTICE_TRIALS ?? 10);
const HOSTS = Math.max(2, Number(process.env.BENCH_NOTICE_HOSTS ?? 10));
const FLAGS = (process.env.BENCH_NOTICE_FLAGS ?? '').split(' ').filter(Boolean);
// A fresh pane for every trial: one that waited before is `stopped` until a person looks at it.
const PANES = 2 * TRIALS + 1; // and one spare: the server outlives the last trial
const TIMEOUT_MS = 30_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const fmt = (ms) => (Number.isFinite(ms) ? (ms / 1000).toFixed(2) : '—');

/** Every pane a shell at `$ `, windows named `probe` so the dashboard's filter keeps them in view. */
const program = () => "PS1='$ ' exec bash --norc --noprofile -i";

async function trial(fleet, { watch, dash, page }, k, pane, kind, n) {
  const server = fleet.servers[k];
  const host = fleet.name(k);
  const key = k === 0 ? pane.id : `${host}/${pane.id}`;
  const tag = `${kind}-${n}-${Math.random().toString(36).slice(2, 7)}`;
  const command = kind === 'ask' ? `read -r -p 'Deploy ${tag} to production? [y/N] ' answer` : `sleep 1; echo built-${tag}`;
  const sent = performance.now();
  server.tmux('send-keys', '-t', pane.id, '-l', command);
  server.tmux('send-keys', '-t', pane.id, 'Enter');
  // Drawn: the question shown, or the output shown with the prompt back under it.
  const drawnMark = kind === 'ask' ? new RegExp(`Deploy ${tag} to production\\? \\[y/N\\]$`) : new RegExp(`^built-${tag}\\n\\$$`, 'm');
  const drawn = await waitFor(() => (drawnMark.test(server.tmux('capture-pane', '-p', '-t', pane.id).trimEnd()) ? performance.now() : null), TIMEOUT_MS, 20);
  const from = drawn ?? sent;
  const row = new RegExp(`STUCK.*\\sbench:${pane.window}\\.0 ${k === 0 ? '(?!on )' : `on ${host} `}`);
  const [event, option, shown, listed] = await Promise.all([
    watch.next((e) => e.type === 'stuck' && e.key === key, sent, TIMEOUT_MS),
    waitFor(() => (/^(permission|stopped)$/.test(server.tmux('show-options', '-pqv', '-t', pane.id, '@corral_state').trim()) ? performance.now() : null), TIMEOUT_MS, 40),
    waitFor(() => (row.test(dash.screen()) ? performance.now() : null), TIMEOUT_MS, 40),
    page.stuck(key, sent, TIMEOUT_MS),
  ]);
  // Each trial has a pane of its own; closed after it, so the waiting list shows the next one in view.
  server.tmux('kill-pane', '-t', pane.id);
  return {
    host: k === 0 ? 'here' : 'over ssh',
    kind,
    drawnMs: drawn ? drawn - sent : null,
    event: event ? event.readAt - from : null,
    option: option ? option - from : null,
    row: shown ? shown - from : null,
    page: listed ? listed - from : null,
  };
}

export async function run(log) {
  const fleet = await startFleetHosts(HOSTS, PANES, program);
  const panes = fleet.servers.map((server) =>
    server
      .tmux('list-panes', '-a', '-F', '#{window_index} #{pane_id}')
      .trim()
      .split('\n')
      .map((line) => {
        const [window, id] = line.split(' ');
        server.tmux('rename-window', '-t', id, 'probe');
        return { window: Number(window), id };
      }),
  );
  const page = await startPageFeed(fleet, FLAGS).catch(async (error) => {
    await fleet.dispose();
    throw error;
  });
  const watch = startWatch(fleet, FLAGS);
  const dash = startDashboardPane(fleet, FLAGS);
  const results = [];
  try {
    // Every pane registered on every host, and the first waits (every shell at its prompt) past.
    await waitFor(() => watch.events.filter((e) => e.type === 'registered').length >= HOSTS * PANES, 120_000, 100);
    await sleep(5_000);
    for (let n = 0; n < TRIALS; n++) {
      for (const kind of ['ask', 'stopped']) {
        // Here, then the next host over ssh.
        for (const k of [0, 1 + (n % (HOSTS - 1))]) {
          const pane = panes[k][kind === 'ask' ? n : TRIALS + n];
          const result = await trial(fleet, { watch, dash, page }, k, pane, kind, n);
          log(`${result.host} ${kind} #${n}: event ${fmt(result.event)} s, option ${fmt(result.option)} s, row ${fmt(result.row)} s, page ${fmt(result.page)} s`);
          results.push(result);
          // A pause that puts the next trial at another phase of the poll.
          await sleep(700 + Math.random() * 1_300);
        }
      }
    }
  } finally {
    await watch.stop();
    await dash.stop();
    await page.stop();
    await fleet.dispose();
  }
  const rows = [];
  for (const host of ['here', 'over ssh'])
    for (const kind of ['ask', 'stopped']) {
      const mine = results.filter((r) => r.host === host && r.kind === kind);
      const cell = (field) => {
        const got = mine.map((r) => r[field]).filter((v) => v !== null);
        const missed = mine.length - got.length;
        return `${fmt(percentile(got, 50))} / ${fmt(percentile(got, 95))}${missed ? ` (${missed} missed)` : ''}`;
      };
      rows.push(`| ${host} | ${kind} | ${mine.length} | ${cell('event')} | ${cell('option')} | ${cell('row')} | ${cell('page')} |`);
    }
  return [
    `${HOSTS} hosts (one here, ${HOSTS - 1} over ssh, taken in turn), ${PANES} panes each, watched by \`corral watch\`, \`corral dashboard\` and \`corral serve --attach\`. ` +
      `Defaults (poll 2 s, ask threshold 1 s, quiet threshold 3 s)${FLAGS.length ? `, with \`${FLAGS.join(' ')}\`` : ''}; seconds from the wait drawn, p50 / p95.`,
    '',
    '| host | kind | trials | `watch` stuck event | `@corral_state` | dashboard row | page list |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

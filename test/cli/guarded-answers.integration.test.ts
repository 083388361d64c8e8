// Answers typed only into the screen the person saw, on screens full of what tmux escapes (`$HOME`,
// backslashes, `#{}`): from the dashboard's actions, the web page and an answer link, into a local
// pane and into the same kind of pane behind a real sshd. The screen the person saw comes from the
// engine's poll; the pane is read again before the keys go out. A pane that did not change is never
// refused; one that changed always is, and nothing reaches it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardActions } from '../../src/cli/dashboard-session.js';
import { createServices, type Services } from '../../src/cli/http-services.js';
import { settingsSlices } from '../../src/cli/settings-slices.js';
import { resolveSettings } from '../../src/engine/settings/config.js';
import { createEngine } from '../../src/engine/engine.js';
import { ScreenChangedError } from '../../src/engine/typing/guarded-send.js';
import { combineEngines } from '../../src/engine/hosts/hosts-engine.js';
import { localHost, openTmux, type OpenedTmux } from '../../src/engine/tmux/open.js';
import { LOCAL_HOST, type PaneView } from '../../src/engine/types.js';
import { AnswerLinks } from '../../src/server/answers/answer-links.js';
import { createAnswerFeature } from '../../src/server/answers/answer-feature.js';
import { startTestSshd, type TestSshd } from '../helpers/sshd.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { TMUX_FORMATS } from '../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime, realTmuxTime } from '../helpers/real-time.js';

const TOKEN = 'guarded-answers-token-0123456789';
// What tmux 3.2/3.3 write differently to a control client (`\$`, `\\`) and what its formats and
// command parser read specially.
const SCREEN = [
  '$ echo $HOME ${PATH} $1 $_x $ end$',
  'C:\\Users\\me \\$HOME \\\\server\\share \\033[0m',
  "#{pane_id} ## #[fg=red] '#{session_name}' \"quoted\" ; semi",
].join('\n');

let server: TestTmux;
let sshd: TestSshd;
let folder: string;
let services: Services;
let base: string;
let session: string;
const opened: OpenedTmux[] = [];
let stopEngine: () => Promise<void>;
let actions: ReturnType<typeof createDashboardActions>;
let snapshot: () => readonly PaneView[];
let links: AnswerLinks;

/**
 * A pane that shows SCREEN, then asks a [y/N] question and prints the answer it read. Creating the
 * file `redraw-<pane number>` changes its screen (a line above the question, asked again).
 */
async function promptPane(): Promise<string> {
  const script = [
    "ask() { printf 'Deploy to production? [y/N] '; }",
    `cat ${join(folder, 'screen.txt')}; ask`,
    // A read that times out keeps what it read so far in `part`: the answer's text may arrive a
    // moment before its Enter.
    "a=''",
    'until IFS= read -r -t 0.1 part; do',
    '  a="$a$part"',
    `  if [ -e ${folder}/redraw-\${TMUX_PANE#%} ]; then rm ${folder}/redraw-\${TMUX_PANE#%}; printf '\\n(redrawn)\\n'; ask; fi`,
    'done',
    'echo "answer:[$a$part]"; sleep 600',
  ].join('\n');
  writeFileSync(join(folder, 'prompt.sh'), script);
  return server.spawn(`exec bash ${join(folder, 'prompt.sh')}`);
}

async function view(key: string, prompt = true): Promise<PaneView> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = snapshot().find((v) => v.key === key);
    if (found && found.screenHash !== '' && (!prompt || found.verdict?.prompt)) return found;
    if (Date.now() > deadline) throw new Error(`no prompt seen on ${key}: ${JSON.stringify(found?.verdict)} ${JSON.stringify(found?.lines)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A view whose screen hash is not `old` any more (the poll saw the change). */
async function viewAfter(key: string, old: string): Promise<PaneView> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = await view(key);
    if (found.screenHash !== old) return found;
    if (Date.now() > deadline) throw new Error(`the engine never saw ${key} change`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'corral-guard-'));
  writeFileSync(join(folder, 'screen.txt'), `${SCREEN}\n`);
  server = await startTestTmux();
  sshd = await startTestSshd();
  const settings = resolveSettings({ flags: { socketName: server.socketName, pollIntervalMs: '100', port: '0' }, env: {}, file: null });
  const slices = settingsSlices(settings);
  const local = openTmux(localHost(server.socket), { ...realTmuxTime, formats: TMUX_FORMATS, persistent: true, retryMs: 0 });
  const remote = openTmux(sshd.host('box', server.socket), { ...realTmuxTime, formats: TMUX_FORMATS, persistent: true, retryMs: 0, sshOptions: sshd.sshOptions, controlDir: mkdtempSync(join(sshd.controlDir, 'g')) });
  opened.push(local, remote);
  const localEngine = createEngine({ ...realEngineTime, settings: slices.engine, tmux: local.client });
  const remoteEngine = createEngine({ ...realEngineTime, settings: slices.engine, tmux: remote.client, host: sshd.host('box', server.socket) });
  const engine = combineEngines(new Map([[LOCAL_HOST, localEngine], ['box', remoteEngine]]));
  engine.start();
  stopEngine = () => engine.stop();
  snapshot = () => engine.getSnapshot().panes;
  services = createServices({
    engine,
    tmux: local.client,
    remotes: new Map([['box', { engine: remoteEngine, tmux: remote.client }]]),
    settings: { ...settings, port: 0 },
    token: TOKEN,
  });
  await services.startAttach();
  base = services.status().url!;
  links = new AnswerLinks(60_000);
  await services.enable(createAnswerFeature({ clock: realClock, links, engine, panes: () => services.panes() }));
  // Signed in as the page is: the login link's code traded for a session it keeps in its origin's storage.
  const code = new URL(services.attachLink()!.url).searchParams.get('code');
  const signIn = await fetch(`${base}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ code }),
  });
  expect(signIn.status, 'sign-in').toBe(201);
  session = ((await signIn.json()) as { session: string }).session;
  // The dashboard types through the same pane port as the servers.
  actions = createDashboardActions({ ...engine, tmux: local.client }, async () => services.panes(), null, () => {});
}, 60_000);

afterAll(async () => {
  await services?.close();
  await stopEngine?.();
  for (const tmux of opened) await tmux.close();
  await server?.kill();
  await sshd?.dispose();
  rmSync(folder, { recursive: true, force: true });
});

type Answer = (pane: PaneView) => Promise<'sent' | 'refused'>;

const fromDashboard: Answer = async (pane) => {
  try {
    await actions.answer(pane, 'y', pane.contentHash);
    return 'sent';
  } catch (error) {
    if (error instanceof ScreenChangedError) return 'refused';
    throw error;
  }
};

const fromPage: Answer = async (pane) => {
  const path = pane.host === LOCAL_HOST ? pane.pane.paneId.slice(1) : `${pane.host}/${pane.pane.paneId.slice(1)}`;
  const res = await fetch(`${base}/api/panes/${path}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'same-origin', authorization: `Bearer ${session}` },
    body: JSON.stringify({ answer: 'y', screen: pane.contentHash }),
  });
  if (res.status === 200) return 'sent';
  expect(res.status, await res.text()).toBe(409);
  return 'refused';
};

const fromLink: Answer = async (pane) => {
  const action = links.actionsFor(pane, base, Date.now()).find((a) => a.answer === 'y');
  expect(action, 'the prompt offers y').toBeDefined();
  const res = await fetch(action!.url, { method: 'POST' });
  if (res.status === 200) return 'sent';
  expect(res.status, await res.text()).toBe(409);
  return 'refused';
};

describe.each([
  ['the dashboard', fromDashboard],
  ['the web page', fromPage],
  ['an answer link', fromLink],
])('answering from %s', (_name, answer) => {
  it.each([LOCAL_HOST, 'box'])('on a %s pane: sent when unchanged, refused when changed, whatever the screen holds', async (host) => {
    const paneId = await promptPane();
    const key = host === LOCAL_HOST ? paneId : `${host}/${paneId}`;
    const seen = await view(key);
    // The screen the engine read is exactly what tmux holds.
    expect(seen.lines.join('\n')).toContain(SCREEN);
    // The pane changes after the person looked: the answer is refused, and nothing is typed.
    writeFileSync(join(folder, `redraw-${paneId.slice(1)}`), '');
    await server.waitForScreen(paneId, (s) => s.includes('(redrawn)'));
    expect(await answer(seen)).toBe('refused');
    // Seen again, unchanged since: sent, every time.
    const again = await viewAfter(key, seen.screenHash);
    expect(await answer(again)).toBe('sent');
    await server.waitForScreen(paneId, (s) => s.includes('answer:[y]'));
  });
});

// tmux 3.2 to 3.5 never free the text of a `capture-pane -p` run by a control client; every
// repaint corral takes must leave the user's tmux server no bigger. Real tmux, private socket.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/engine/settings/config.js';
import { createEngine } from '../../../src/engine/engine.js';
import { createPanePort, type HostPanePort } from '../../../src/engine/port/pane-port.js';
import { LOCAL_HOST } from '../../../src/engine/types.js';
import { printedCapturesLeak } from '../../../src/engine/pane-stream/repaint.js';
import { TmuxClient } from '../../../src/engine/tmux/client.js';
import { tmuxVersion } from '../../../src/engine/tmux/core.js';
import { Recorder } from '../../helpers/stream-recorder.js';
import { startTestTmux, type TestTmux } from '../../helpers/tmux-server.js';
import { LISTED_RECORDS } from '../../../src/engine/records/tmux-formats.js';
import { realClock, realEngineTime, realPortTime } from '../../helpers/real-time.js';

let tmux: TestTmux | null = null;
let access: HostPanePort | null = null;
afterEach(async () => {
  await access?.close();
  access = null;
  await tmux?.kill();
  tmux = null;
});

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

describe('repaints and the tmux server\'s memory', () => {
  it('100 repaints of a full 400x100 screen leave the tmux server no bigger', async () => {
    tmux = await startTestTmux();
    // 100 rows of 399 characters: about 40 KB a capture, 4 MB over 100 if tmux kept them. Few large
    // repaints rather than many small ones: each costs a tmux process on the leaking versions, and
    // a loaded machine starts processes slowly.
    const pane = await tmux.spawn('for i in $(seq 1 100); do printf "%0399d" $i; done; read -r _', { width: 400, height: 100 });
    await tmux.waitForScreen(pane, (s) => s.includes('00100'));
    const client = new TmuxClient({ clock: realClock, records: LISTED_RECORDS, socket: tmux.socket });
    const version = await tmuxVersion(client.runner);
    const settings = resolveSettings({ flags: { attachRingBytes: String(1 << 16), attachPauseAfter: '5', attachGraceMs: '60000' }, env: {}, file: null });
    // The engine is not started: the streams find the pane's session through tmux.
    access = createPanePort({ ...realPortTime, engine: createEngine({ ...realEngineTime, settings, tmux: client }), tmux: client, host: LOCAL_HOST, settings });
    const viewer = new Recorder(false);
    const sub = await access.stream(pane, viewer);
    expect(sub.replay.bytes.toString()).toContain('0'.repeat(390));
    const pid = Number((await tmux.tmux('display-message', '-p', '#{pid}')).trim());
    // Warm up tmux's allocator, then measure.
    for (let i = 0; i < 10; i++) await access.repaint(pane, viewer);
    const before = rssKb(pid);
    for (let i = 0; i < 100; i++) await access.repaint(pane, viewer);
    const grown = rssKb(pid) - before;
    expect(viewer.resets).toHaveLength(110);
    expect(viewer.resets.at(-1)!.bytes.toString()).toContain('0'.repeat(390));
    // On the versions that leak, the screens went through paste buffers, all deleted again.
    if (printedCapturesLeak(version)) expect((await tmux.tmux('list-buffers')).trim()).toBe('');
    expect(grown).toBeLessThan(1024);
    sub.unsubscribe();
  });
});

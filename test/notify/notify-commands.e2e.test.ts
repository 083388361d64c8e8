// `corral watch` with --on-stuck and --notify-desktop as a real process on a private tmux server: the
// command gets the facts in variables (hostile screen text stays text), and a real notification
// daemon (dunst on a private D-Bus bus under xvfb-run) shows the desktop notification.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, startCli, type LiveCli } from '../helpers/cli.js';
import { notificationDaemonMissing, startNotificationDaemon, type NotificationDaemon } from '../helpers/notification-daemon.js';
import { mustNotSkip } from '../helpers/skips.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';
import { waitUntil } from '../helpers/wait-until.js';

// CI installs the daemon (.ci/run), so there a missing tool fails the test; elsewhere it is skipped and says why.
const missing = mustNotSkip() ? null : notificationDaemonMissing();
if (missing) console.warn(`notify-commands.e2e: skipped, ${missing} is not installed (apt-get install dunst xvfb xauth libnotify-bin)`);

describe.skipIf(missing !== null)('notifications from corral watch', () => {
  let tmux: TestTmux;
  let daemon: NotificationDaemon;
  let cli: LiveCli | null = null;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corral-notify-'));
    tmux = await startTestTmux();
    daemon = await startNotificationDaemon();
  });
  afterAll(async () => {
    await cli?.stop();
    await daemon?.stop();
    await tmux?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs --on-stuck with the facts in variables and shows a desktop notification', async () => {
    const pane = await tmux.spawn();
    await tmux.waitForScreen(pane, (s) => /\$\s*$/.test(s.trimEnd()));
    const out = join(dir, 'on-stuck.txt');
    const onStuck = `printf '%s\\n' "$CORRAL_PANE" "$CORRAL_TARGET" "$CORRAL_REASON" "$CORRAL_HOST" "$CORRAL_MESSAGE" > '${out}'`;
    cli = startCli(
      ['watch', '-L', tmux.socketName, '--quiet-threshold', '800', '--poll-interval', '200', '--on-stuck', onStuck, '--notify-desktop'],
      cliEnv({ DBUS_SESSION_BUS_ADDRESS: daemon.env.DBUS_SESSION_BUS_ADDRESS! }),
    );
    await cli.waitForLine((line) => line.includes('"registered"') && line.includes(`"${pane}"`));
    const pwned = join(dir, 'PWNED');
    // The question carries shell syntax; it must reach the command and the desktop as plain text.
    await tmux.tmux('send-keys', '-t', pane, '-l', `read -p 'Delete $(touch ${pwned}) \`touch ${pwned}\`? [y/N] ' a`);
    await tmux.tmux('send-keys', '-t', pane, 'Enter');
    await cli.waitForLine((line) => line.includes('"stuck"'), 15_000);

    const notified = () => existsSync(out) && readFileSync(out, 'utf8').split('\n').length > 5 && daemon.output().includes('summary');
    await waitUntil(notified, 30_000, 'the notification', 50).catch((error: Error) => {
      throw new Error(`${error.message}; stderr: ${cli!.stderr()}\ndunst: ${daemon.output()}`);
    });
    const [paneLine, target, reason, host, ...message] = readFileSync(out, 'utf8').split('\n');
    expect([paneLine, target, reason]).toEqual([pane, 'main:0.0', 'permission']);
    expect(host).not.toBe('');
    expect(message.join('\n')).toContain(`Delete $(touch ${pwned}) \`touch ${pwned}\`? [y/N]`);
    expect(existsSync(pwned)).toBe(false);

    const shown = daemon.output();
    expect(shown).toContain("appname: 'corral'");
    expect(shown).toContain("summary: 'main:0.0 asks for permission'");
    expect(shown).toContain(`Delete $(touch ${pwned})`);
    expect(shown).toContain('urgency: CRITICAL');
    expect(cli.stderr()).toBe('');
  });
});

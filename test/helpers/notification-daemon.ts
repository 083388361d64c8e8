// A real desktop notification daemon for tests: dunst on a private D-Bus session bus, on a virtual
// X display (xvfb-run). dunst -print writes every notification it shows to stdout. Debian packages:
// dunst, xvfb, xauth, libnotify-bin, dbus-daemon.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export interface NotificationDaemon {
  /** The environment a client needs to reach this bus. */
  readonly env: NodeJS.ProcessEnv;
  /** Everything dunst printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export function notificationDaemonMissing(): string | null {
  for (const tool of ['dunst', 'xvfb-run', 'dbus-daemon', 'dbus-send', 'notify-send']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return tool;
  }
  return null;
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    try {
      process.kill(-child.pid!, 'SIGTERM'); // the whole group: xvfb-run, Xvfb and dunst
    } catch {
      resolve();
    }
  });
}

export async function startNotificationDaemon(): Promise<NotificationDaemon> {
  const missing = notificationDaemonMissing();
  if (missing) throw new Error(`the desktop notification test needs ${missing} (apt-get install dunst xvfb xauth libnotify-bin dbus-daemon)`);
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    bus.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\n')) resolve(text.split('\n')[0]!.trim());
    });
    bus.on('exit', () => reject(new Error('dbus-daemon exited')));
  });
  const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address };
  const dunst = spawn('xvfb-run', ['-a', 'dunst', '-print'], { env, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  let printed = '';
  dunst.stdout!.on('data', (d: Buffer) => (printed += d.toString()));
  const deadline = Date.now() + 15_000;
  // Ready when dunst owns the notification service's name on the bus.
  for (;;) {
    const probe = spawnSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.Notifications'], { env, encoding: 'utf8' });
    if (probe.stdout.includes('boolean true')) break;
    if (Date.now() > deadline) {
      await Promise.all([kill(dunst), kill(bus)]);
      throw new Error('dunst did not take the notification service within 15 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    env,
    output: () => printed,
    stop: async () => {
      await kill(dunst);
      await kill(bus);
    },
  };
}

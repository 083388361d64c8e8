// Desktop notifications the platform's own way: notify-send (libnotify) on Linux, Notification
// Center through osascript on macOS. Arguments go as an array, never through a shell, and on macOS
// the text reaches AppleScript as run arguments, not inside the script. (node-notifier would run
// notify-send through a shell with escaped arguments and ships 5.5 MB of binaries for other systems.)

import { execFile } from 'node:child_process';
import type { NotificationText } from './channels.js';

export type DesktopCommand = { readonly file: string; readonly args: readonly string[] } | { readonly unsupported: string };

export function desktopCommand(text: NotificationText, platform: NodeJS.Platform = process.platform): DesktopCommand {
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    return {
      file: 'notify-send',
      args: ['--app-name=corral', `--urgency=${text.priority >= 4 ? 'critical' : 'normal'}`, '--', text.title, text.message],
    };
  }
  if (platform === 'darwin') {
    const script = ['on run argv', 'display notification (item 2 of argv) with title (item 1 of argv)', 'end run'];
    return { file: 'osascript', args: [...script.flatMap((line) => ['-e', line]), text.title, text.message] };
  }
  return { unsupported: `desktop notifications are not supported on ${platform}` };
}

export class DesktopUnavailableError extends Error {}

export function sendDesktop(text: NotificationText, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const command = desktopCommand(text);
  if ('unsupported' in command) return Promise.reject(new DesktopUnavailableError(command.unsupported));
  return new Promise((resolve, reject) => {
    execFile(command.file, [...command.args], { env, timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        const hint = command.file === 'notify-send' ? ' (apt install libnotify-bin, or your system\'s libnotify package)' : '';
        return reject(new DesktopUnavailableError(`desktop notifications need ${command.file}, which is not installed${hint}`));
      }
      reject(new Error(`${command.file} failed: ${stderr.trim() || error.message}`));
    });
  });
}

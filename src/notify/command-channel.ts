// --on-stuck CMD: runs the user's command through /bin/sh with the facts in environment variables.
// Screen text only ever travels in variables, never in the command line, so nothing on a screen
// can become shell code (quote "$CORRAL_MESSAGE" in your command as usual).

import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import type { Timers } from '../engine/types.js';
import type { NotificationText } from './channels.js';

const COMMAND_TIMEOUT_MS = 30_000;

export function commandEnv(text: NotificationText, base: NodeJS.ProcessEnv = process.env, host: string = hostname()): NodeJS.ProcessEnv {
  return {
    ...base,
    CORRAL_PANE: text.panes.join(' '),
    CORRAL_TARGET: text.targets.join(' '),
    CORRAL_REASON: text.reason,
    CORRAL_MESSAGE: text.summary,
    CORRAL_TITLE: text.title,
    CORRAL_COUNT: String(text.panes.length),
    CORRAL_HOST: host,
  };
}

/** Runs the command; resolves with its exit code (null when it was killed after the timeout, armed on `timers`). */
export function runOnStuck(command: string, text: NotificationText, timers: Timers, env: NodeJS.ProcessEnv = process.env): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { env: commandEnv(text, env), stdio: 'ignore' });
    const timer = timers.setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', (error) => {
      timers.clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      timers.clearTimeout(timer);
      resolve(code);
    });
  });
}

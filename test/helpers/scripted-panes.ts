// A scripted tmux for unit tests: a TmuxRunner that answers the bridge's commands (batched
// display-message + capture-pane, send-keys, load-buffer/paste-buffer) from in-memory panes.

import type { TmuxResult, TmuxRunner } from '../../src/engine/tmux/runner.js';

export interface FakePane {
  lines: string[];
  cursorRow: number;
  height: number;
  dead?: boolean;
  /** Shows the alternate screen (a full-screen program). */
  alternate?: boolean;
  /** Foreground command (default bash). */
  command?: string;
  /** Cursor column (default: the end of the cursor line). */
  cursorX?: number;
  width?: number;
  /** The tmux server's pid and start time (default 100:1700000000). */
  server?: string;
}

export interface ScriptedTmux {
  readonly runner: TmuxRunner;
  readonly panes: Map<string, FakePane>;
  /** Every command run, as argv arrays (chains split on ';'). */
  readonly calls: string[][][];
  /** Literal text and keys sent, per pane, in order ("text:..." / "key:Enter" / "paste:..."). */
  readonly typed: Map<string, string[]>;
  /** How many runner calls captured panes. */
  captureCalls(): number;
}

function splitChain(args: readonly string[]): string[][] {
  const out: string[][] = [[]];
  for (const arg of args) {
    if (arg === ';') out.push([]);
    else out[out.length - 1]!.push(arg);
  }
  return out;
}

export function scriptedTmux(initial: Record<string, FakePane>): ScriptedTmux {
  const panes = new Map(Object.entries(initial));
  const calls: string[][][] = [];
  const typed = new Map<string, string[]>();
  let buffer = '';
  const record = (pane: string, item: string) => {
    const list = typed.get(pane) ?? [];
    list.push(item);
    typed.set(pane, list);
  };
  const runner: TmuxRunner = async (args, options) => {
    const commands = splitChain(args);
    calls.push(commands);
    let stdout = '';
    for (const command of commands) {
      const target = command[command.indexOf('-t') + 1] ?? '';
      const pane = panes.get(target);
      const fail = (): TmuxResult => ({ stdout, stderr: `can't find pane: ${target}\n`, exitCode: 1 });
      switch (command[0]) {
        case 'display-message': {
          // Without a target it asks about the server itself (its pid and start time).
          if (!command.includes('-t')) {
            stdout += `${(command[command.length - 1] ?? '').replace('#{pid}:#{start_time}', '100:1700000000')}\n`;
            break;
          }
          if (!pane) return fail();
          const format = command[command.length - 1] ?? '';
          const screenTop = Math.max(0, pane.lines.length - pane.height);
          stdout += `${format
            .replace('#{cursor_y}', String(pane.cursorRow - screenTop))
            .replace('#{pane_height}', String(pane.height))
            .replace('#{pane_dead}', pane.dead ? '1' : '0')
            .replace('#{alternate_on}', pane.alternate ? '1' : '0')
            .replace('#{cursor_x}', String(pane.cursorX ?? (pane.lines[pane.cursorRow] ?? '').length))
            .replace('#{pane_width}', String(pane.width ?? 100))
            .replace('#{pid}:#{start_time}', pane.server ?? '100:1700000000')
            .replace('#{pane_current_command}', pane.command ?? 'bash')}\n`;
          break;
        }
        case 'capture-pane': {
          if (!pane) return fail();
          const rows = [...pane.lines];
          while (rows.length < pane.height) rows.push('');
          stdout += rows.map((row) => `${row}\n`).join('');
          break;
        }
        case 'send-keys': {
          if (!pane) return fail();
          // Text comes as its bytes in hex (`-H`), or literally (`-l`); anything else is a key name.
          const hex = command.indexOf('-H');
          if (hex !== -1) record(target, `text:${Buffer.from(command.slice(hex + 1).join(''), 'hex').toString('utf8')}`);
          else record(target, command.includes('-l') ? `text:${command[command.length - 1]}` : `key:${command[command.length - 1]}`);
          break;
        }
        case 'load-buffer':
          buffer = options?.input ?? '';
          break;
        case 'paste-buffer':
          if (!pane) return fail();
          record(target, `paste:${buffer}`);
          break;
        default:
          return { stdout, stderr: `unknown command ${command[0]}\n`, exitCode: 1 };
      }
    }
    return { stdout, stderr: '', exitCode: 0 };
  };
  return {
    runner,
    panes,
    calls,
    typed,
    captureCalls: () => calls.filter((chain) => chain.some((c) => c[0] === 'capture-pane')).length,
  };
}

// A tmux stand-in for the engine's poll: answers list-panes, display-message (strftime's `%s` is
// the server's clock, `%%` a percent sign), capture-pane (printed, or into a buffer as a
// control-mode poll does) and the buffer commands, from a mutable list of panes.

import { HOOK_RECORD_FORMAT } from '../../src/engine/hooks/hook-record.js';
import { QUIET_OPTION, QUIET_RECORD_FORMAT } from '../../src/engine/records/quiet-record.js';
import { ATTENTION_OPTION, ATTENTION_RECORD_FORMAT } from '../../src/engine/attention/record.js';
import type { TmuxResult, TmuxRunner } from '../../src/engine/tmux/runner.js';

export interface PolledPane {
  id: string;
  title?: string;
  screen: string;
  /** tmux's window_activity stamp, epoch seconds (0: none). */
  activity?: number;
  width?: number;
  height?: number;
  /** Shows its alternate screen (a full-screen program). */
  alternateOn?: boolean;
  /** The pane's `@corral_hook` option, as a listing shows it (see hook-record.ts). */
  hookRecord?: string;
  /** The pane's `@corral_quiet` option (see quiet-record.ts). */
  quietRecord?: string;
  /** The pane's `@corral_attention` option (see attention/record.ts). */
  attentionRecord?: string;
  /** Its foreground command (bash by default). */
  command?: string;
  /** tmux's #{pane_pid} (1 by default). */
  pid?: number;
}

export interface ScriptedPoll {
  readonly runner: TmuxRunner;
  /** Every call's argv, chains included. */
  readonly calls: string[][];
  /** Down: every call fails as tmux does without a server. */
  setServer(up: boolean): void;
  /** Up: calls throw this instead (a host that ssh cannot reach). */
  fail(error: Error | null): void;
}

/** A pane's format variables, as tmux would expand them (one window per pane, in session main). */
function variables(p: PolledPane): Record<string, string> {
  const n = p.id.slice(1);
  return {
    pane_id: p.id,
    session_id: '$0',
    session_name: 'main',
    window_id: `@${n}`,
    window_index: n,
    window_name: 'win',
    pane_index: '0',
    pane_title: p.title ?? 'title',
    pane_current_path: '/work',
    pane_current_command: p.command ?? 'bash',
    pane_pid: String(p.pid ?? 1),
    pane_dead: '0',
    pane_width: String(p.width ?? 80),
    pane_height: String(p.height ?? 24),
    pane_in_mode: '0',
    alternate_on: p.alternateOn ? '1' : '0',
    window_activity: String(p.activity ?? 0),
  };
}

function expand(format: string, p: PolledPane): string {
  const vars = variables(p);
  return format.replaceAll(HOOK_RECORD_FORMAT, p.hookRecord ?? '').replaceAll(QUIET_RECORD_FORMAT, p.quietRecord ?? '').replaceAll(ATTENTION_RECORD_FORMAT, p.attentionRecord ?? '').replace(/#\{([a-z_]+)\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`the scripted tmux knows no format variable ${whole}`);
    return value;
  });
}

/**
 * `processTable`: what the host's shell prints for a `run-shell` (its `ps`); the scripted tmux then
 * puts it in the buffer the command pipes into, as `tmux load-buffer` would. '' stands for a `ps`
 * that failed (only the leading blank line is left).
 */
export function scriptedPoll(
  panes: readonly PolledPane[],
  serverSeconds: () => number = () => Math.floor(Date.now() / 1000),
  processTable: () => string = () => '',
): ScriptedPoll {
  const calls: string[][] = [];
  const buffers = new Map<string, string>();
  let serverUp = true;
  let failure: Error | null = null;
  const runner: TmuxRunner = async (args): Promise<TmuxResult> => {
    calls.push([...args]);
    if (failure) throw failure;
    if (!serverUp) return { stdout: '', stderr: 'no server running on /tmp/tmux-0/x\n', exitCode: 1 };
    let stdout = '';
    const commands: string[][] = [[]];
    for (const a of args) {
      if (a === ';') commands.push([]);
      else commands[commands.length - 1]!.push(a);
    }
    for (const cmd of commands) {
      if (cmd[0] === 'list-panes') {
        const format = cmd[cmd.indexOf('-F') + 1]!;
        // `-t @N`: the panes of one window (pane %N is window @N's only pane).
        const window = cmd.includes('-t') ? cmd[cmd.indexOf('-t') + 1]! : null;
        const listed = window === null ? panes : panes.filter((p) => `@${p.id.slice(1)}` === window);
        if (window !== null && listed.length === 0) return { stdout, stderr: `can't find window: ${window.slice(1)}\n`, exitCode: 1 };
        for (const p of listed) stdout += `${expand(format, p)}\n`;
      } else if (cmd[0] === 'display-message') {
        stdout += `${cmd[2]!.replace('%s', String(serverSeconds())).replaceAll('%%', '%')}\n`;
      } else if (cmd[0] === 'capture-pane') {
        const target = cmd[cmd.indexOf('-t') + 1];
        const p = panes.find((x) => x.id === target);
        if (!p) return { stdout, stderr: `can't find pane: ${target}\n`, exitCode: 1 };
        const text = p.screen.endsWith('\n') ? p.screen : `${p.screen}\n`;
        // -b keeps the capture in a buffer; show-buffer prints it as tmux 3.3 shows a buffer to a
        // control client (backslashes doubled, an extra line end).
        if (cmd.includes('-b')) buffers.set(cmd[cmd.indexOf('-b') + 1]!, text);
        else stdout += text;
      } else if (cmd[0] === 'set-buffer') {
        buffers.set(cmd[2]!, cmd[4]!);
      } else if (cmd[0] === 'show-buffer') {
        const text = buffers.get(cmd[2]!);
        if (text === undefined) return { stdout, stderr: `no buffer ${cmd[2]}\n`, exitCode: 1 };
        stdout += `${text.replaceAll('\\', '\\\\')}\n`;
      } else if (cmd[0] === 'run-shell') {
        const into = / load-buffer -b (\S+) - /.exec(cmd[1]!);
        if (into) buffers.set(into[1]!, `\n${processTable()}`);
      } else if (cmd[0] === 'delete-buffer') {
        buffers.delete(cmd[2]!);
      } else if (cmd[0] === 'set-option' && cmd.includes('-p')) {
        // Pane options: only the hook and quiet records are kept.
        const p = panes.find((x) => x.id === cmd[cmd.indexOf('-t') + 1]);
        if (!p) return { stdout, stderr: `can't find pane: ${cmd[cmd.indexOf('-t') + 1]}\n`, exitCode: 1 };
        let value = cmd.includes('-F') ? cmd.at(-1)!.replaceAll('#{pane_current_command}', p.command ?? 'bash') : cmd.at(-1)!;
        // The attention record's compare-and-set: `#{?#{==:#{s/…//:@corral_attention},OLD},NEW,#{@corral_attention}}`.
        const cas = /^#\{\?#\{==:#\{s\/[^}]*:@corral_attention\},([A-Za-z0-9._-]*)\},([A-Za-z0-9._-]*),#\{@corral_attention\}\}$/.exec(value);
        if (cas) value = (p.attentionRecord ?? '') === cas[1] ? cas[2]! : (p.attentionRecord ?? '');
        // The hook record's compare-and-clear: `#{?#{==:#{@corral_hook},OLD},,#{@corral_hook}}`.
        const clear = /^#\{\?#\{==:#\{@corral_hook\},([A-Za-z0-9._-]*)\},,#\{@corral_hook\}\}$/.exec(value);
        if (clear) value = (p.hookRecord ?? '') === clear[1] ? '' : (p.hookRecord ?? '');
        if (cmd.at(cmd.includes('-u') ? -1 : -2) === '@corral_hook') p.hookRecord = cmd.includes('-u') ? '' : value;
        if (cmd.at(cmd.includes('-u') ? -1 : -2) === QUIET_OPTION) p.quietRecord = cmd.includes('-u') ? '' : value;
        if (cmd.at(cmd.includes('-u') ? -1 : -2) === ATTENTION_OPTION) p.attentionRecord = cmd.includes('-u') ? '' : value;
      }
    }
    return { stdout, stderr: '', exitCode: 0 };
  };
  return { runner, calls, setServer: (up) => void (serverUp = up), fail: (error) => void (failure = error) };
}

// Options as records (`client.options`): every pane's options in a format the caller gives, the
// global options, a pane option written or cleared compare-and-set, and independent commands run
// in as few round trips as tmux allows. Which options and formats is the caller's business.

import { chain } from './command-line.js';
import { NoServerError, type TmuxCore } from './core.js';
import { assertPaneId } from './pane-id.js';
import { TmuxCommandError, isNoServerMessage, runChecked } from './runner.js';

/** The characters a record value may hold to be cleared compare-and-set (it goes into a format). */
const CLEARABLE = /^[A-Za-z0-9._-]+$/;

export class OptionRecords {
  constructor(private readonly core: TmuxCore) {}

  /**
   * Runs independent commands (setting options, say) in as few round trips as it can: tmux stops a
   * command line at the first command that fails (an option of a pane that closed meanwhile), so
   * the ones after it go again. Resolves to how many failed.
   */
  async runEach(commands: readonly (readonly string[])[]): Promise<number> {
    const { pollRunner } = this.core;
    let failed = 0;
    let rest = commands;
    while (rest.length > 0) {
      const replies = pollRunner.replies ? await pollRunner.replies(rest) : null;
      let done: number;
      if (replies !== null) {
        done = replies.length;
        if (replies.at(-1)?.ok === false) failed += 1;
      } else {
        const result = await pollRunner(chain(rest));
        if (result.exitCode === 0) return failed;
        if (isNoServerMessage(result.stderr)) throw new NoServerError(this.core.serverLabel);
        // Which one failed is not told: run them one by one.
        for (const command of rest) if ((await pollRunner(command)).exitCode !== 0) failed += 1;
        return failed;
      }
      rest = rest.slice(Math.max(1, done));
    }
    return failed;
  }

  /**
   * Every pane listed in `format` (the caller's options, one pane a line), and the global options
   * (`show-options -g`, the writers among them), over the poll's connection when there is one.
   */
  async paneOptions(format: string): Promise<{ readonly listing: string; readonly globals: string }> {
    const listing = await runChecked(this.core.commandRunner, ['list-panes', '-a', '-F', format]).catch((error: unknown) => {
      if (error instanceof TmuxCommandError && isNoServerMessage(error.result.stderr)) throw new NoServerError(this.core.serverLabel);
      throw error;
    });
    return { listing, globals: await this.globalOptions() };
  }

  /** `show-options -g`: the global session options, user options among them, one a line. */
  async globalOptions(): Promise<string> {
    return runChecked(this.core.commandRunner, ['show-options', '-g']);
  }

  /**
   * Sets the pane's `option` to `value`, a format tmux expands, over the control connection when
   * there is one.
   */
  async writeRecord(paneId: string, option: string, value: string): Promise<void> {
    assertPaneId(paneId);
    await runChecked(this.core.commandRunner, ['set-option', '-p', '-F', '-t', paneId, option, value]);
  }

  /**
   * Empties the pane's `option` if it still holds `value` (tmux compares and stores in one command,
   * so a record written meanwhile by another corral process stays). One `set-option -F`, not an
   * `if-shell`: the command an `if-shell` runs answers a control client in a second reply block,
   * which no caller waits for, and every later reply on that connection would be the one before it.
   */
  async clearRecord(paneId: string, option: string, value: string): Promise<void> {
    assertPaneId(paneId);
    if (!CLEARABLE.test(value)) return;
    await runChecked(this.core.commandRunner, ['set-option', '-p', '-q', '-F', '-t', paneId, option, `#{?#{==:#{${option}},${value}},,#{${option}}}`]);
  }
}

// The dashboard's text fields in a real terminal: tmux writes several keys of one `send-keys` in
// one go, as a held Backspace, a loaded machine or ssh do, and the reply holds what those keys
// mean (no `^?`), then goes into the pane as edited.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_JS, shellQuote } from '../helpers/corral-shim.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

describe('text fields in a real tmux pane', () => {
  let server: TestTmux;
  let dash = '';
  let asking = '';

  beforeAll(async () => {
    server = await startTestTmux();
    asking = await server.spawn(`read -p 'name? ' a; echo "got [$a]"; sleep 600`);
    await server.waitForScreen(asking, (s) => s.includes('name?'));
    await server.tmux('rename-window', '-t', asking, 'asker');
    dash = await server.spawn(
      `exec ${shellQuote(process.execPath)} ${shellQuote(MAIN_JS)} dashboard --poll-interval 500`,
      {
        session: 'dash',
        width: 110,
        height: 30,
      },
    );
    await server.waitForScreen(dash, (s) => /\d+ total/.test(s), 15_000);
  });

  afterAll(async () => {
    await server?.kill();
  });

  it('edits a reply with keys that arrive in one read, and types the edited line', async () => {
    const target = (
      await server.tmux('display-message', '-p', '-t', asking, '#{session_name}:#{window_index}.#{pane_index}')
    ).trim();
    // Select the asking pane: the filter narrows the list to it (typed in one read too).
    await server.tmux('send-keys', '-t', dash, '-l', '/asker');
    await server.tmux('send-keys', '-t', dash, 'Enter');
    await server.waitForScreen(dash, (s) => s.includes('filter: asker'));
    await server.tmux('send-keys', '-t', dash, 'r');
    await server.waitForScreen(dash, (s) => s.includes(`reply to ${target} ›`));
    await server.tmux('send-keys', '-t', dash, '-l', 'hello');
    await server.waitForScreen(dash, (s) => s.includes('› hello'));
    // Two Backspaces in one go: the bytes reach the dashboard in one read.
    await server.tmux('send-keys', '-t', dash, 'BSpace', 'BSpace');
    const edited = await server.waitForScreen(dash, (s) => /› hel\s/.test(s) || s.includes('^?'));
    expect(edited).not.toContain('^?');
    expect(edited).toMatch(new RegExp(`reply to ${target.replace(/\./g, '\\.')} › hel\\s`));
    // Moves and kills in one go too: Home, a word, End, Left, Delete of the l, then Ctrl-K, Ctrl-E.
    await server.tmux('send-keys', '-t', dash, 'Home', 'x', 'y', ' ', 'End', 'Left', 'DC', 'C-k', 'C-e', 'p');
    await server.waitForScreen(dash, (s) => s.includes('› xy hep'));
    await server.tmux('send-keys', '-t', dash, 'C-w', 'C-a', 'C-k');
    await server.waitForScreen(dash, (s) =>
      new RegExp(`reply to ${target.replace(/\./g, '\\.')} › +Enter sends`).test(s),
    );
    await server.tmux('send-keys', '-t', dash, '-l', 'corral');
    await server.tmux('send-keys', '-t', dash, 'BSpace', 'BSpace', 'BSpace', 'Left', 'BSpace', 'Enter');
    await server.waitForScreen(asking, (s) => s.includes('got [cr]'));
  });
});

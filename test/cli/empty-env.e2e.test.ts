// The real CLI with empty environment variables: each one counts as unset, so corral runs as it
// would without it, on a private tmux server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS, type SettingSpec } from '../../src/engine/settings/config.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { startTestTmux, type TestTmux } from '../helpers/tmux-server.js';

let server: TestTmux;
beforeAll(async () => {
  server = await startTestTmux();
  const pane = await server.spawn(`printf 'ready here\\n'; sleep 600`);
  await server.waitForScreen(pane, (s) => s.includes('ready here'));
});
afterAll(async () => {
  await server?.kill();
});

describe('empty environment variables (real CLI)', () => {
  it('CORRAL_TMUX_BIN= runs tmux from PATH', async () => {
    const r = await runCli(['ls', '-L', server.socketName], { env: cliEnv({ CORRAL_TMUX_BIN: '' }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ready here');
  });

  it('a CORRAL_TMUX_BIN that is not there is reported by its name (exit 127), not as tmux missing', async () => {
    const r = await runCli(['ls', '-L', server.socketName], { env: cliEnv({ CORRAL_TMUX_BIN: '/nonexistent/tmux' }) });
    expect(r.code).toBe(127);
    expect(r.stderr).toBe('corral: CORRAL_TMUX_BIN names /nonexistent/tmux, which is not there or cannot run: point it at a tmux >= 3.2, or unset it to use tmux from the PATH\n');
  });

  it('every setting variable set to empty changes nothing', async () => {
    const empty = Object.fromEntries((SETTINGS as readonly SettingSpec[]).flatMap((s) => s.env ?? []).map((n) => [n, '']));
    const r = await runCli(['ls', '--json', '-L', server.socketName], { env: cliEnv({ ...empty, CORRAL_TMUX_BIN: '', CORRAL_TOKEN: '' }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

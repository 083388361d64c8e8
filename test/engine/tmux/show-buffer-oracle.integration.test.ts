// The decoder of paste buffers shown over control mode, against tmux itself on every tmux build
// found (tmux-binaries.ts): any byte, after any byte, in a buffer loaded from a file, comes back
// through `show-buffer` and decodeEscaped as exactly the file's bytes read as UTF-8.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../../../src/engine/tmux/control-client.js';
import { makeFraming } from '../../../src/engine/tmux/command-line.js';
import { parseProbe, probeCommand, shownScreen } from '../../../src/engine/tmux/control-capture.js';
import { Rng, screenLine, testSeed } from '../../helpers/hostile-text.js';
import { tmuxBuilds } from '../../helpers/tmux-binaries.js';
import { startTestTmux } from '../../helpers/tmux-server.js';
import { realTmuxTime } from '../../helpers/real-time.js';

const seed = testSeed();
const folder = mkdtempSync(join(tmpdir(), 'corral-show-buffer-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Every byte between two others of every kind, `$` before every byte, and seeded random strings. */
function cases(rng: Rng, withNul: boolean): Buffer[] {
  const out: Buffer[] = [];
  const neighbours = [0x41, 0x31, 0x5f, 0x7b, 0x20, 0x24, 0x5c, 0x30, 0x37, 0xc3, 0xe2, 0x80, 0x09, 0x1b];
  for (let byte = withNul ? 0 : 1; byte < 256; byte++) {
    if (byte === 0x0a) continue;
    out.push(Buffer.from([byte]));
    for (const next of neighbours) out.push(Buffer.from([0x78, byte, next, 0x79]), Buffer.from([0x24, byte]), Buffer.from([byte, 0x24, next]));
  }
  for (let i = 0; i < 2000; i++) {
    const parts: Buffer[] = [];
    for (let n = 1 + rng.int(6); n > 0; n--) {
      parts.push(rng.int(3) === 0 ? Buffer.from(Array.from({ length: 1 + rng.int(6) }, () => (withNul ? 0 : 1) + rng.int(withNul ? 256 : 255))) : Buffer.from(screenLine(rng, 3)));
    }
    out.push(Buffer.concat(parts).filter((b) => b !== 0x0a) as Buffer);
  }
  return out;
}

describe.each(tmuxBuilds())('paste buffers shown over control mode (tmux $version)', ({ binary, version }) => {
  it('decode to the bytes that were loaded, for every byte in every neighbourhood', async () => {
    const server = await startTestTmux({ binary });
    let client: ControlClient | null = null;
    try {
      await server.tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'oracle', 'sleep 600');
      client = await ControlClient.open({ timers: realTmuxTime.timers, socket: server.socket, session: 'oracle', binary, extraFlags: ['no-output'] });
      const probe = await client.run([probeCommand(makeFraming('oracle'))].flatMap((c) => splitOn(c)));
      const style = parseProbe(probe.map((r) => r.text).join(''));
      expect(style).toBe(/^3\.[23]/.test(version) ? 'escaped' : 'raw');
      // tmux 3.4 on prints a shown buffer as a C string: it ends at a NUL (no screen holds one).
      const all = cases(new Rng(seed), style === 'escaped');
      const separator = Buffer.from('\n<~case~>\n');
      const file = join(folder, `cases-${version}`);
      writeFileSync(file, Buffer.concat(all.flatMap((bytes, i) => (i === 0 ? [bytes] : [separator, bytes]))));
      execFileSync(binary, ['-L', server.socketName, 'load-buffer', '-b', 'oracle', file]);
      const [shown] = await client.run([['show-buffer', '-b', 'oracle']]);
      expect(shown?.ok).toBe(true);
      const decoded = shownScreen(shown!.text, style!).replace(/\n$/, '').split(separator.toString());
      expect(decoded).toHaveLength(all.length);
      const wrong = all
        .map((bytes, i) => ({ bytes: bytes.toString('hex'), want: bytes.toString('utf8'), got: decoded[i] }))
        .filter((c) => c.got !== c.want);
      expect(wrong.slice(0, 5), `seed ${seed}: ${wrong.length} of ${all.length} buffers differ`).toEqual([]);
    } finally {
      await client?.close();
      await server.kill();
    }
  });
});

function splitOn(command: readonly string[]): string[][] {
  const commands: string[][] = [[]];
  for (const word of command) {
    if (word === ';') commands.push([]);
    else commands[commands.length - 1]!.push(word);
  }
  return commands;
}

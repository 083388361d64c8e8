// Whether a pane's foreground program waits for input, from /proc as the kernel writes it (read
// through a stand-in here; the bridge tests read the real one).

import { describe, expect, it } from 'vitest';
import { foregroundWaitsForInput } from '../../../src/engine/conversation/input-wait.js';

/** /proc with the shell (pid 10, a hostile command name) and its foreground process 42. */
function proc(syscall: string | null): (path: string) => string {
  return (path) => {
    if (path === '/proc/10/stat') return '10 (ba) sh (x)) S 1 10 10 34816 42 4194560 0 0';
    if (path === '/proc/42/syscall' && syscall !== null) return `${syscall}\n`;
    throw new Error(`ENOENT: ${path}`);
  };
}

describe('foregroundWaitsForInput', () => {
  it('says yes for a read of standard input or a wait on descriptors, no for a sleep, a read elsewhere or a running process', () => {
    expect(foregroundWaitsForInput(10, proc('0 0x0 0x5604df873f40 0x1000 0x0 0x0 0x0 0x7ffd 0x7f'), 'x64')).toBe(true);
    expect(foregroundWaitsForInput(10, proc('270 0x1 0x7ffc362899b0 0x0 0x0 0x0 0x8 0x7ffc 0x7f'), 'x64')).toBe(true);
    expect(foregroundWaitsForInput(10, proc('230 0x0 0x0 0x7ffca9377230 0x7 0x0 0x0 0x7ffc 0x7f'), 'x64')).toBe(false);
    expect(foregroundWaitsForInput(10, proc('0 0x3 0x5604df873f40 0x1000 0x0 0x0 0x0 0x7ffd 0x7f'), 'x64')).toBe(false);
    expect(foregroundWaitsForInput(10, proc('running'), 'x64')).toBe(false);
    expect(foregroundWaitsForInput(10, proc('63 0x0 0x1 0x1 0x0 0x0 0x0 0x1 0x1'), 'arm64')).toBe(true);
  });

  it('cannot tell without /proc, for another architecture or a pid that is not one', () => {
    expect(foregroundWaitsForInput(10, proc(null), 'x64')).toBeNull();
    expect(foregroundWaitsForInput(10, proc('0 0x0'), 'mips')).toBeNull();
    expect(foregroundWaitsForInput(0, proc('0 0x0'), 'x64')).toBeNull();
  });
});

// Whether a pane's foreground program waits for input, from /proc as the kernel writes it (read
// through a stand-in here; the bridge tests read the real one).

import { describe, expect, it } from 'vitest';
import { foregroundWaitsForInput } from '../../../src/engine/conversation/input-wait.js';

/** /proc with the shell (pid 10, a hostile command name) and its foreground process 42. */
function proc(syscall: string | null): (path: string) => string {
  return (path) => {
    if (path === '/proc/10/stat') return '10 (ba) sh (x)) S 1 10 10 34816 42 4194560 0 0';
    if (path === '/proc/42/stat') return '42 (prog) S 10 42 10 34816 42 0';
    if (path === '/proc/42/syscall' && syscall !== null) return `${syscall}\n`;
    throw Object.assign(new Error(`EACCES: ${path}`), { code: 'EACCES' });
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

  it('looks past a foreground leader that has exited: a pipeline member that reads, or no live process (a program ending)', () => {
    const files: Record<string, string> = {
      '/proc/10/stat': '10 (bash) S 1 10 10 34816 42 4194560 0 0',
      '/proc/10/task/10/children': '42 43 50 ',
      '/proc/42/stat': '42 (cat) Z 10 42 10 34816 42 0',
      '/proc/50/stat': '50 (other) S 10 50 10 34816 42 0',
      '/proc/43/stat': '43 (less) S 10 42 10 34816 42 0',
      '/proc/43/syscall': '0 0x0 0x5604df873f40 0x1000 0x0 0x0 0x0 0x7ffd 0x7f\n',
    };
    const read = (without: string[] = []) => (path: string): string => {
      const text = without.includes(path) ? undefined : files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    };
    expect(foregroundWaitsForInput(10, read(), 'x64')).toBe(true);
    expect(foregroundWaitsForInput(10, read(['/proc/42/stat']), 'x64')).toBe(true);
    expect(foregroundWaitsForInput(10, read(['/proc/43/stat']), 'x64')).toBe(false);
    expect(foregroundWaitsForInput(10, read(['/proc/43/syscall']), 'x64')).toBe(false);
    expect(foregroundWaitsForInput(10, read(['/proc/10/task/10/children']), 'x64')).toBe(false);
  });

  it('says no for a process stopped outside any system call (starting or ending)', () => {
    expect(foregroundWaitsForInput(10, proc('-1 0x0 0x0'), 'x64')).toBe(false);
  });

  it('cannot tell without /proc, for a process not ours to read, for another architecture or a pid that is not one', () => {
    expect(foregroundWaitsForInput(10, proc(null), 'x64')).toBeNull();
    expect(foregroundWaitsForInput(10, proc('0 0x0'), 'mips')).toBeNull();
    expect(foregroundWaitsForInput(0, proc('0 0x0'), 'x64')).toBeNull();
  });
});

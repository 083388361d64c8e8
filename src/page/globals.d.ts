// What the triage page finds on `window`: xterm.js (loaded on demand from /assets/xterm.js, which
// sets the global `Terminal`) and the hook the browser tests call.

import type { Terminal } from '@xterm/xterm';

declare global {
  interface Window {
    Terminal: typeof Terminal;
    corralPage: { formatDuration(ms: number): string };
  }
}

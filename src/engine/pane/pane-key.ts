// Pane keys across hosts: a pane's tmux id on this machine (`%3`), `host/%3` on any other. The
// only code that builds or splits one.

import { LOCAL_HOST } from '../types.js';

/**
 * The key of a pane across hosts: its tmux id on the local host (`%3`, as before), else
 * `host/%3` (`build-box/%3`).
 */
export function paneKey(host: string, paneId: string): string {
  return host === LOCAL_HOST ? paneId : `${host}/${paneId}`;
}

/** Splits a pane key into host and tmux pane id; null when it is not one. */
export function parsePaneKey(key: string): { readonly host: string; readonly paneId: string } | null {
  const slash = key.lastIndexOf('/');
  const host = slash === -1 ? LOCAL_HOST : key.slice(0, slash);
  const paneId = key.slice(slash + 1);
  if (!/^%\d+$/.test(paneId) || host === '' || (slash !== -1 && host === LOCAL_HOST)) return null;
  return { host, paneId };
}

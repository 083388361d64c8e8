// The JSON the triage page reads from corral: the pane list (/api/panes/events), the session a
// link's code is traded for, and the attach server's messages. Only the fields the page uses.

/** A browser's session, kept in this origin's localStorage. */
export interface Session {
  credential: string;
  id?: string | undefined;
  write?: boolean | undefined;
}

export interface ListedPrompt {
  lines: string[];
  kind: string;
  options: string[];
}

export interface ListedPane {
  id: string;
  host: string;
  online: boolean;
  target: string;
  label: string | null;
  name?: string | undefined;
  ask?: string | null | undefined;
  title: string;
  command: string;
  cwd: string;
  status: string;
  badge: string;
  reason_text: string | null;
  quiet_ms: number;
  last_line: string;
  screen: string;
  cols: number;
  prompt: ListedPrompt | null;
}

export interface PaneList {
  server: string;
  status: string;
  status_message: string | null;
  write: boolean;
  counts: { stuck: number; total: number };
  panes: ListedPane[];
}

/** What /attach/N sends. */
export type AttachMessage =
  | { type: 'hello'; pane: { cols: number; rows: number; command: string } }
  | { type: 'replay'; replay_mode: string; chunks: string[]; snapshot_offset: number }
  | { type: 'output'; data: string; offset: number }
  | { type: 'status'; exit_code?: number }
  | { type: 'error'; message: string };

/** What the page sends on /attach/N. */
export type AttachRequest = { type: 'subscribe'; from_offset?: number } | { type: 'input'; data: string };

/** An error answer's body: `{ error: { message } }`. */
export interface ErrorBody {
  error?: { message?: string };
}

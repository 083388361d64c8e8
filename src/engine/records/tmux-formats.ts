// The formats corral's tmux client is given: which pane option records every listing carries, and
// the global option whose change a control connection is told of. The tmux layer knows no record
// of its own (src/engine/tmux imports nothing from here); these are passed down to it.

import { ATTENTION_RECORD_FORMAT, ATTENTION_STAMP_OPTION } from '../attention/record.js';
import { HOOK_RECORD_FORMAT } from '../hooks/hook-record.js';
import { QUIET_RECORD_FORMAT } from './quiet-record.js';
import type { TmuxFormats } from '../tmux/open.js';
import type { ListedRecords } from '../tmux/pane-list.js';

/** The hook, attention and quiet records, each filtered by tmux to the characters it holds. */
export const LISTED_RECORDS: ListedRecords = { hook: HOOK_RECORD_FORMAT, attention: ATTENTION_RECORD_FORMAT, quiet: QUIET_RECORD_FORMAT };

export const TMUX_FORMATS: TmuxFormats = { records: LISTED_RECORDS, recordsStamp: ATTENTION_STAMP_OPTION };

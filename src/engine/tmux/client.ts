// The tmux client of one server: the shared connection (core.ts) and one part per concern on top.
// `panes` lists and polls (polling.ts), `io` reads and types into a pane (pane-io.ts), `clients`
// moves the person's terminal clients (terminal-clients.ts), `options` keeps option records
// (option-records.ts), `launch` starts and ends panes (launch.ts).

import { TmuxCore, type TmuxCoreOptions } from './core.js';
import { PaneLaunch } from './launch.js';
import { OptionRecords } from './option-records.js';
import type { ListedRecords } from './pane-list.js';
import { PaneIo } from './pane-io.js';
import { PaneListing } from './polling.js';
import { TerminalClients } from './terminal-clients.js';

export interface TmuxClientOptions extends TmuxCoreOptions {
  /** The pane option records every listing carries, as tmux formats (the engine's, passed down). */
  readonly records: ListedRecords;
}

export class TmuxClient extends TmuxCore {
  readonly panes: PaneListing;
  readonly io: PaneIo;
  readonly clients: TerminalClients;
  readonly options: OptionRecords;
  readonly launch: PaneLaunch;

  constructor(options: TmuxClientOptions) {
    super(options);
    this.panes = new PaneListing(this, options.records);
    this.io = new PaneIo(this);
    this.clients = new TerminalClients(this);
    this.options = new OptionRecords(this);
    this.launch = new PaneLaunch(this);
  }
}

// Which panes the bridge offers as "models", and how a request's `model` names one of them.
// Besides the panes there is one virtual model, `corral`, that never types: chat UIs can send
// their title and summary requests there.

import { LOCAL_HOST, type EngineStore, type PaneView } from '../../engine/types.js';
import type { PaneHold } from '../../engine/port/pane-port-api.js';

/** The side model's name. It wins over a pane labelled the same (that pane stays reachable by its target). */
export const SIDE_MODEL = 'corral';

/** What corral adds to a model entry (OpenAI clients ignore unknown fields). */
export interface ModelStatus {
  readonly pane: string | null;
  readonly target: string | null;
  /** Not free for a new message: answering, or its command still runs. */
  readonly busy: boolean;
  readonly phase: PaneHold['phase'] | null;
  readonly command: string | null;
  readonly virtual: boolean;
}

export interface ModelEntry {
  readonly id: string;
  readonly object: 'model';
  readonly created: number;
  readonly owned_by: string;
  readonly corral: ModelStatus;
}

/**
 * The name a pane is listed under: its label when it has one, else `session:window.pane`; on
 * another host with the host in front (`build-box/work:1.0`).
 */
export function modelName(view: PaneView): string {
  return `${hostPrefix(view)}${view.label ?? view.target}`;
}

function hostPrefix(view: PaneView): string {
  return view.host === LOCAL_HOST ? '' : `${view.host}/`;
}

export function bridgedPanes(store: EngineStore, disabled: ReadonlySet<string>): PaneView[] {
  return store.getSnapshot().panes.filter((view) => view.state !== 'ended' && !view.pane.dead && !disabled.has(view.key));
}

export function listModels(store: EngineStore, disabled: ReadonlySet<string>, holdOf: (key: string) => PaneHold | null, startedAt: number): ModelEntry[] {
  const side: ModelEntry = {
    id: SIDE_MODEL,
    object: 'model',
    created: Math.floor(startedAt / 1000),
    owned_by: 'corral',
    corral: { pane: null, target: null, busy: false, phase: null, command: null, virtual: true },
  };
  return [
    side,
    ...bridgedPanes(store, disabled).map((view) => {
      const hold = holdOf(view.key);
      return {
        id: modelName(view),
        object: 'model' as const,
        created: Math.floor(view.registeredAt / 1000),
        owned_by: 'corral',
        corral: {
          pane: view.key,
          target: view.target,
          busy: hold !== null,
          phase: hold?.phase ?? null,
          command: hold?.command ?? view.pane.command,
          virtual: false,
        },
      };
    }),
  ];
}

/** Finds the pane a `model` value names: pane key (`%3`, `build-box/%3`), `session:window.pane`, or label. */
export function resolveModel(store: EngineStore, disabled: ReadonlySet<string>, model: string): PaneView | null {
  const panes = bridgedPanes(store, disabled);
  return (
    panes.find((view) => view.key === model) ??
    panes.find((view) => `${hostPrefix(view)}${view.target}` === model) ??
    panes.find((view) => view.label !== null && modelName(view) === model) ??
    null
  );
}

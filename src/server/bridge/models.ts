// Which panes the bridge offers as "models", and how a request's `model` names one of them.

import type { EngineStore, PaneView } from '../../engine/types.js';

export interface ModelEntry {
  readonly id: string;
  readonly object: 'model';
  readonly created: number;
  readonly owned_by: string;
}

/** The name a pane is listed under: its label when it has one, else `session:window.pane`. */
export function modelName(view: PaneView): string {
  return view.label ?? view.target;
}

export function bridgedPanes(store: EngineStore, disabled: ReadonlySet<string>): PaneView[] {
  return store.getSnapshot().panes.filter((view) => view.state !== 'ended' && !view.pane.dead && !disabled.has(view.pane.paneId));
}

export function listModels(store: EngineStore, disabled: ReadonlySet<string>): ModelEntry[] {
  return bridgedPanes(store, disabled).map((view) => ({
    id: modelName(view),
    object: 'model' as const,
    created: Math.floor(view.registeredAt / 1000),
    owned_by: 'corral',
  }));
}

/** Finds the pane a `model` value names: pane id (`%3`), `session:window.pane`, or label. */
export function resolveModel(store: EngineStore, disabled: ReadonlySet<string>, model: string): PaneView | null {
  const panes = bridgedPanes(store, disabled);
  return (
    panes.find((view) => view.pane.paneId === model) ??
    panes.find((view) => view.target === model) ??
    panes.find((view) => view.label !== null && view.label === model) ??
    null
  );
}

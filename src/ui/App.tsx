// The dashboard. It reads the engine's store and the services store, keeps its own state in a
// reducer (state.ts) and renders. Keys go through the pure dispatcher (key-dispatch.ts), which
// returns UI actions and effects; everything that touches tmux or the servers is an effect, run
// through the DashboardActions it is given (key-effects.ts).
//
// Keys act on what was drawn: the dispatcher reads the snapshot of the last render, not a newer
// one, and every answer carries the screen hash the person saw, so that nothing is typed into a
// pane whose screen changed since (see actions.ts).

import { cutAsk } from '../engine/attention/ask.js';
import { cellSafe, cellWidth } from '../engine/text/cells.js';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { Box } from 'ink';
import type { Clock, EngineHandle, EngineSnapshot, PaneView } from '../engine/types.js';
import type { DashboardActions } from './actions.js';
import { Footer } from './Footer.js';
import { formatQuiet, previewLines, shortCwd } from './format.js';
import { useFocus } from './use-focus.js';
import { Header, headerText } from './Header.js';
import { HelpOverlay } from './HelpOverlay.js';
import { planLayout, type Layout } from './layout.js';
import { OFFLINE_BADGE, countStatuses, paneStatus, quietMs, statusBadge } from '../engine/pane/pane-status.js';
import { collapsedHostLine, hostDown, hostLine, isWaiting, paneWhere } from './hosts.js';
import { matchesFilter, paneLabel } from './pane-label.js';
import type { RowModel } from './PaneRow.js';
import { PaneList } from './PaneList.js';
import { Preview } from './Preview.js';
import { StatusLine } from './StatusLine.js';
import { offeredKeysText, paneAnswers } from './quick-answers.js';
import { UNAVAILABLE_SERVICES, type ServicesStore } from './service-state.js';
import { createUiStore, visibleRows, type UiState, type UiStore, type VisibleRows } from './state.js';
import { listLines, scrollList, type ListLine } from './list-lines.js';
import type { KeyScene } from './key-dispatch.js';
import type { EffectDeps } from './key-effects.js';
import { useKeys } from './use-keys.js';
import { useNow } from './use-now.js';
import { useTerminalSize, type TerminalSize } from './use-terminal-size.js';

export interface AppProps {
  readonly engine: EngineHandle;
  readonly actions: DashboardActions;
  readonly services?: ServicesStore;
  /** Wall-clock time, for the quiet timers. */
  readonly clock: Clock;
  /** How often the quiet timers tick (ms). */
  readonly tickMs?: number;
  /** A pane whose screen changed within this many ms shows as `active`, else `quiet`. */
  readonly activeWindowMs?: number;
  /** Replaces the server name in the header (the demo says so here). */
  readonly label?: string | null;
  /** Home directory, shortened to `~` in cwds. */
  readonly home?: string | null;
  /** tmux's default pane title is the host name; such titles are replaced by the command. */
  readonly hostName?: string | null;
  /** False when NO_COLOR is set. */
  readonly color?: boolean;
  /** The dashboard's own state; pass one to keep it across a remount (the CLI repaints that way). */
  readonly uiStore?: UiStore;
  /** Fixed terminal size (tests); by default the real one, following resizes. */
  readonly size?: TerminalSize;
}

const emptyServices: ServicesStore = { getSnapshot: () => UNAVAILABLE_SERVICES, subscribe: () => () => {} };

/** What one render shows: the rows, the layout, the selected pane and the list lines in view. */
interface DashboardView extends VisibleRows {
  readonly selected: PaneView | null;
  readonly layout: Layout;
  readonly shown: readonly ListLine[];
  readonly offlineCount: number;
  readonly onlinePanes: readonly PaneView[];
}

function useDashboardView(
  ui: UiState,
  snapshot: EngineSnapshot,
  size: TerminalSize,
  headerLines: (onlinePanes: readonly PaneView[]) => 1 | 2,
): DashboardView {
  const rows = useMemo(() => visibleRows(ui, snapshot.panes, matchesFilter, snapshot.hosts), [ui, snapshot.panes, snapshot.hosts]);
  const { byId, visibleIds, selectedId, groups, waiting } = rows;
  const selected = selectedId === null ? null : (byId.get(selectedId) ?? null);
  // Rows among the waiting panes name their host too (`main:1.0 on build-box`).
  const grouped = groups !== null;
  const targetWidth = useMemo(
    () => Math.max(6, ...snapshot.panes.map((v) => (grouped && isWaiting(v) ? paneWhere(v) : v.target).length)),
    [snapshot.panes, grouped],
  );
  // Panes on a host that is down are counted apart: their last state may no longer be true.
  const onlinePanes = useMemo(() => snapshot.panes.filter((v) => v.online), [snapshot.panes]);
  const lines = useMemo(() => listLines(visibleIds, groups, waiting), [visibleIds, groups, waiting]);
  const shownLines = useMemo(
    () => (selected ? previewLines(selected.lines, size.columns, Number.POSITIVE_INFINITY).length : 0),
    [selected?.lines, size.columns],
  );
  const layout = planLayout(size.columns, size.rows, targetWidth, headerLines(onlinePanes), {
    rows: visibleIds.length,
    groupLines: (groups?.length ?? 0) + (waiting.length > 0 ? 1 : 0),
    previewLines: shownLines,
  });
  const scrollRef = useRef(0);
  const { top, shown } = scrollList(lines, selectedId, scrollRef.current, Math.max(1, layout.listHeight));
  scrollRef.current = top;
  return { ...rows, selected, layout, shown, offlineCount: snapshot.panes.length - onlinePanes.length, onlinePanes };
}

/**
 * The time the dashboard shows: the clock, ticking only when something drawn would change (a
 * timer, a state, a host's countdown), and never behind the snapshot.
 */
function useShownNow(clock: Clock, tickMs: number, view: DashboardView, activeWindowMs: number, updatedAt: number): number {
  const { shown, byId, onlinePanes } = view;
  const displayKey = useCallback(
    (at: number) =>
      shown
        .map((line) => {
          if (line.kind === 'host') return line.group.collapsed ? collapsedHostLine(line.group, at) : hostLine(line.group, at);
          if (line.kind === 'waiting') return '';
          const pane = byId.get(line.key) as PaneView;
          return `${paneStatus(pane, at, activeWindowMs)}${formatQuiet(quietMs(pane, at))}`;
        })
        .join() + countStatuses(onlinePanes, at, activeWindowMs).quiet,
    [shown, byId, activeWindowMs, onlinePanes],
  );
  return Math.max(useNow(clock, tickMs, displayKey), updatedAt);
}

interface RowSettings {
  readonly now: number;
  readonly activeWindowMs: number;
  readonly layout: Layout;
  readonly home: string | null;
  readonly hostName: string | null;
}

/**
 * One row's model: its status (answered, from here or anywhere, until its screen changes), badge, names and
 * timer; `withHost`: the target names the pane's host (the waiting panes of every host).
 */
function rowModelOf(view: PaneView, answered: UiState['answered'], s: RowSettings, withHost: boolean): RowModel {
  const isAnswered = answered !== null && answered.key === view.key && answered.hash === view.contentHash;
  const status = isAnswered ? 'answered' : paneStatus(view, s.now, s.activeWindowMs);
  return {
    key: view.key,
    status,
    badge: !view.online ? OFFLINE_BADGE : statusBadge(status, view.reason, s.layout.columns.shortBadge),
    target: withHost ? paneWhere(view) : view.target,
    label: paneLabel(view, s.hostName),
    cwd: shortCwd(view.pane.cwd, s.home, s.layout.columns.cwd),
    timer: formatQuiet(quietMs(view, s.now)),
    disagrees: (view.hook?.disagreement ?? null) !== null,
    offline: !view.online,
  };
}

/** The preview's title: where the pane is, its name, and what its wait asks (cut keeping both ends). */
function previewTitle(view: PaneView, hostName: string | null, width: number): string {
  const base = `${paneWhere(view)} · ${paneLabel(view, hostName)}${view.online ? '' : ' · offline, last screen seen'}`;
  const ask = view.online && view.attention.need !== null ? view.attention.ask : null;
  const room = width - 6 - cellWidth(cellSafe(base)) - ' · asks: '.length;
  return ask !== null && room >= 12 ? `${base} · asks: ${cutAsk(ask, room)}` : base;
}

export function App(props: AppProps) {
  const { engine, actions, services = emptyServices, clock, tickMs = 1000, activeWindowMs = 5000 } = props;
  const { label = null, home = null, hostName = null, color = true } = props;
  const snapshot = useSyncExternalStore(engine.subscribe, engine.getSnapshot);
  const serviceState = useSyncExternalStore(services.subscribe, services.getSnapshot);
  const size = useTerminalSize(props.size);
  const uiStore = useMemo(() => props.uiStore ?? createUiStore(), [props.uiStore]);
  const ui = useSyncExternalStore(uiStore.subscribe, uiStore.getState);
  const loading = snapshot.status === 'starting';
  // The header's height (one or two lines) barely depends on the counts: those at the snapshot do.
  const headerLines = (online: readonly PaneView[]) =>
    headerText(snapshot.server, label, loading ? null : countStatuses(online, snapshot.updatedAt, activeWindowMs), serviceState, size.columns, snapshot.panes.length - online.length).lines;
  const view = useDashboardView(ui, snapshot, size, headerLines);
  const { selected, layout } = view;
  useFocus(engine, layout.preview !== 'none' && selected !== null && selected.online ? selected.key : null);
  const now = useShownNow(clock, tickMs, view, activeWindowMs, snapshot.updatedAt);

  // Take new snapshots (and idle time) into the row order.
  useEffect(() => {
    uiStore.dispatch({ type: 'sync', panes: snapshot.panes, now });
  }, [snapshot.panes, now]);

  useDashboardKeys(uiStore, snapshot, clock, { actions, engine, services, activeWindowMs });

  const settings: RowSettings = { now, activeWindowMs, layout, home, hostName };
  const rowModel = (key: string, withHost: boolean) => rowModelOf(view.byId.get(key) as PaneView, ui.answered, settings, withHost);
  const answers = paneAnswers(selected?.online === false ? null : selected);
  const modeTarget = ui.targetId === null ? undefined : view.byId.get(ui.targetId);
  return (
    <Box flexDirection="column" width={size.columns}>
      <Header server={snapshot.server} label={label} counts={loading ? null : countStatuses(view.onlinePanes, now, activeWindowMs)} services={serviceState} width={size.columns} color={color} offline={view.offlineCount} />
      {ui.mode === 'help' ? (
        <HelpOverlay width={size.columns} height={size.rows - 4} answers={answers} target={selected ? paneWhere(selected) : null} down={selected ? hostDown(selected, snapshot.hosts) : null} lastMessage={ui.lastStatus?.text ?? null} />
      ) : (
        <Box flexDirection={layout.preview === 'side' ? 'row' : 'column'}>
          <PaneList layout={layout} snapshot={snapshot} lines={view.shown} grouped={view.groups !== null} byId={view.byId} selectedId={view.selectedId} filter={ui.filter} now={now} color={color} rowModel={rowModel} />
          {layout.preview !== 'none' && selected ? (
            <Box marginLeft={layout.preview === 'side' ? 3 : 0}>
              <Preview title={previewTitle(selected, hostName, layout.previewWidth)} lines={selected.lines} width={layout.previewWidth} height={layout.previewHeight} />
            </Box>
          ) : null}
        </Box>
      )}
      <StatusLine ui={ui} target={modeTarget ? paneWhere(modeTarget) : null} answers={ui.mode === 'answer' ? paneAnswers(modeTarget ?? null) : answers} width={size.columns} color={color} />
      <Footer width={size.columns} answerKeys={offeredKeysText(answers)} />
    </Box>
  );
}

/**
 * Keys: the scene a key acts on is what this render drew (several keys can arrive between two
 * renders, so the UI state is read from the store for each), and the effects run with the
 * actions and stores of the latest render.
 */
function useDashboardKeys(
  uiStore: UiStore,
  snapshot: EngineSnapshot,
  clock: Clock,
  latest: Omit<EffectDeps, 'dispatch'> & { readonly activeWindowMs: number },
): void {
  const drawn = useRef(snapshot);
  drawn.current = snapshot;
  const current = useRef(latest);
  current.current = latest;
  const scene = useCallback((): KeyScene => {
    const ui = uiStore.getState();
    const shown = drawn.current;
    const now = clock.now();
    return {
      ui,
      rows: visibleRows(ui, shown.panes, matchesFilter, shown.hosts),
      hosts: shown.hosts,
      services: current.current.services.getSnapshot(),
      now,
      stateNow: Math.max(now, shown.updatedAt),
      activeWindowMs: current.current.activeWindowMs,
    };
  }, [uiStore, clock]);
  const deps = useCallback((): EffectDeps => ({ ...current.current, dispatch: uiStore.dispatch }), [uiStore]);
  useKeys(scene, deps);
}

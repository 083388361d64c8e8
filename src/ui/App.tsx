// The dashboard. It reads the engine's store and the services store, keeps its own state in a
// reducer (state.ts), and turns key presses into actions through the keymap table. It renders;
// everything that touches tmux or the servers goes through the DashboardActions it is given.

import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { Box, Text, useInput, type Key } from 'ink';
import type { Clock, EngineHandle, PaneView } from '../engine/types.js';
import { systemClock } from '../engine/types.js';
import type { DashboardActions } from './actions.js';
import { Footer } from './Footer.js';
import { clip, formatQuiet, shortCwd } from './format.js';
import { Header, headerText } from './Header.js';
import { HelpOverlay } from './HelpOverlay.js';
import { ANSWER_PREFIX, findBinding, keyName, type KeyBinding } from './keymap.js';
import { planLayout } from './layout.js';
import { countStatuses, paneStatus, quietMs, statusBadge } from '../engine/pane-status.js';
import { matchesFilter, paneLabel } from './pane-status.js';
import { PaneRow, type RowModel } from './PaneRow.js';
import { Preview } from './Preview.js';
import { SERVICE_TITLES, UNAVAILABLE_SERVICES, type ServiceName, type ServicesStore } from './services.js';
import { createUiStore, visibleRows, type StatusMessage, type UiState, type UiStore } from './state.js';
import { useNow } from './use-now.js';
import { useTerminalSize, type TerminalSize } from './use-terminal-size.js';

export interface AppProps {
  readonly engine: EngineHandle;
  readonly actions: DashboardActions;
  readonly services?: ServicesStore;
  readonly clock?: Clock;
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

const PLAIN_KEY = {
  return: false,
  escape: false,
  ctrl: false,
  meta: false,
  tab: false,
  backspace: false,
  delete: false,
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
} as const;

const emptyServices: ServicesStore = { getSnapshot: () => UNAVAILABLE_SERVICES, subscribe: () => () => {} };

export function App({
  engine,
  actions,
  services = emptyServices,
  clock = systemClock,
  tickMs = 1000,
  activeWindowMs = 5000,
  label = null,
  home = null,
  hostName = null,
  color = true,
  size: fixedSize,
  uiStore: givenUiStore,
}: AppProps) {
  const snapshot = useSyncExternalStore(engine.subscribe, engine.getSnapshot);
  const serviceState = useSyncExternalStore(services.subscribe, services.getSnapshot);
  const size = useTerminalSize(fixedSize);
  const uiStore = useMemo(() => givenUiStore ?? createUiStore(), [givenUiStore]);
  const ui = useSyncExternalStore(uiStore.subscribe, uiStore.getState);
  const dispatch = uiStore.dispatch;

  const { byId, visibleIds, selectedId } = useMemo(
    () => visibleRows(ui, snapshot.panes, matchesFilter),
    [ui, snapshot.panes],
  );
  const targetWidth = useMemo(() => Math.max(6, ...snapshot.panes.map((v) => v.target.length)), [snapshot.panes]);
  // The header's height (one or two lines) barely depends on the counts: those at the snapshot do.
  const roughCounts = countStatuses(snapshot.panes, snapshot.updatedAt, activeWindowMs);
  const headerLines = headerText(snapshot.server, label, roughCounts, serviceState, size.columns).lines;
  const layout = planLayout(size.columns, size.rows, targetWidth, headerLines);

  const selectedIndex = selectedId === null ? 0 : visibleIds.indexOf(selectedId);
  // Scroll so the selection stays on screen, keeping it off the edges where possible.
  const listRows = Math.max(1, layout.listHeight);
  const scrollTop = Math.max(0, Math.min(selectedIndex - Math.floor(listRows / 2), visibleIds.length - listRows));
  const shownIds = visibleIds.slice(scrollTop, scrollTop + listRows);

  const displayKey = useCallback(
    (at: number) =>
      shownIds
        .map((id) => {
          const view = byId.get(id) as PaneView;
          return `${paneStatus(view, at, activeWindowMs)}${formatQuiet(quietMs(view, at))}`;
        })
        .join() + countStatuses(snapshot.panes, at, activeWindowMs).quiet,
    [shownIds, byId, activeWindowMs, snapshot.panes],
  );
  const tickNow = useNow(clock, tickMs, displayKey);
  const now = Math.max(tickNow, snapshot.updatedAt);

  // Take new snapshots (and idle time) into the row order.
  useEffect(() => {
    dispatch({ type: 'sync', panes: snapshot.panes, now });
  }, [snapshot.panes, now]);

  const rows: RowModel[] = shownIds.map((id) => {
    const view = byId.get(id) as PaneView;
    const status = paneStatus(view, now, activeWindowMs);
    return {
      paneId: id,
      status,
      badge: statusBadge(status, view.reason, layout.columns.shortBadge),
      target: view.target,
      label: paneLabel(view, hostName),
      cwd: shortCwd(view.pane.cwd, home, layout.columns.cwd),
      timer: formatQuiet(quietMs(view, now)),
      disagrees: (view.hook?.disagreement ?? null) !== null,
    };
  });
  const counts = countStatuses(snapshot.panes, now, activeWindowMs);
  const selected = selectedId === null ? null : (byId.get(selectedId) ?? null);

  // Values for the key handler, read fresh on every key (several keys can arrive between renders).
  const latest = useRef({ actions, engine, serviceState, activeWindowMs });
  latest.current = { actions, engine, serviceState, activeWindowMs };
  const current = useCallback(() => {
    const state = uiStore.getState();
    const rowsNow = visibleRows(state, engine.getSnapshot().panes, matchesFilter);
    const selectedView = rowsNow.selectedId === null ? null : (rowsNow.byId.get(rowsNow.selectedId) ?? null);
    return {
      ...latest.current,
      ui: state,
      ...rowsNow,
      selected: selectedView,
      now: Math.max(clock.now(), engine.getSnapshot().updatedAt),
    };
  }, [uiStore, engine, clock]);

  const handleKey = useCallback(
    (input: string, key: Key) => {
      const ctx = current();
      const name = keyName(input, key);
      const at = clock.now();
      const report = (status: StatusMessage | null) => dispatch({ type: 'done', status });
      const failed = (error: unknown) => report({ text: (error as Error)?.message ?? String(error), tone: 'error' });

      if (name === 'ctrl+c' && ctx.ui.mode !== 'answer') {
        ctx.actions.quit();
        return;
      }
      switch (ctx.ui.mode) {
        case 'help':
          dispatch({ type: 'mode', mode: 'normal', now: at });
          return;
        case 'reply':
        case 'filter':
          editLine(ctx.ui, name, input, key, at);
          return;
        case 'confirm': {
          const pending = ctx.ui.pending;
          const pane = pending ? ctx.byId.get(pending.paneId) : undefined;
          if (name === 'y' && pending && pane) {
            report({ text: `sending ${pending.label} to ${pane.target}`, tone: 'info' });
            ctx.actions
              .send(pane, pending.items)
              .then(() => report({ text: `sent ${pending.label} to ${pane.target}`, tone: 'info' }), failed);
          } else {
            report({ text: 'cancelled', tone: 'info' });
          }
          return;
        }
        case 'answer': {
          const binding = findBinding('answer', name);
          const pane = ctx.ui.targetId === null ? undefined : ctx.byId.get(ctx.ui.targetId);
          if (!binding || !binding.send || !pane) {
            report(name === 'escape' ? null : { text: `no quick answer on ${input || name}`, tone: 'info' });
            return;
          }
          const what = binding.label.replace(/^send /, '').replace(/ \(.*\)$/, '');
          if (binding.confirm) {
            dispatch({
              type: 'confirm',
              pending: { paneId: pane.pane.paneId, items: binding.send, label: what },
              now: at,
            });
            return;
          }
          report({ text: `sending ${what} to ${pane.target}`, tone: 'info' });
          ctx.actions
            .send(pane, binding.send)
            .then(() => report({ text: `sent ${what} to ${pane.target}`, tone: 'info' }), failed);
          return;
        }
        case 'normal': {
          if (name === 'escape') {
            if (ctx.ui.filter !== '') dispatch({ type: 'clear-filter', now: at });
            else dispatch({ type: 'status', status: null });
            return;
          }
          const binding = findBinding('normal', name);
          if (binding) runCommand(binding, at);
          return;
        }
      }
    },
    [clock],
  );

  // Several keys in one read (fast typing, tmux send-keys, a paste): while typing text, runs of
  // text go in at once and a newline is Enter; otherwise one key at a time. The mode is read
  // afresh for every piece, since a key may change it.
  const handleInput = useCallback(
    (input: string, key: Key) => {
      let rest = input;
      if (keyName(input, key) !== input || [...input].length <= 1) {
        handleKey(input, key);
        return;
      }
      while (rest !== '') {
        const mode = current().ui.mode;
        const textMode = mode === 'reply' || mode === 'filter';
        const piece = /^[\r\n]/.test(rest)
          ? (rest[0] as string)
          : textMode
            ? (/^[^\r\n]+/.exec(rest)?.[0] as string)
            : ([...rest][0] as string);
        rest = rest.slice(piece.length);
        const isEnter = piece === '\r' || piece === '\n';
        handleKey(isEnter ? '\r' : piece, { ...key, ...PLAIN_KEY, return: isEnter });
      }
    },
    [handleKey, current],
  );

  function editLine(state: UiState, name: string, input: string, key: Key, at: number) {
    const field = state.mode === 'reply' ? 'draft' : 'filter';
    const ctx = current();
    if (name === 'escape') {
      if (field === 'filter') dispatch({ type: 'clear-filter', now: at });
      else dispatch({ type: 'done', status: { text: 'reply cancelled', tone: 'info' } });
      return;
    }
    if (name === 'enter') {
      if (field === 'filter') {
        dispatch({ type: 'mode', mode: 'normal', now: at });
        return;
      }
      const pane = state.targetId === null ? undefined : ctx.byId.get(state.targetId);
      if (!pane) {
        dispatch({ type: 'done', status: { text: 'that pane has closed', tone: 'warn' } });
        return;
      }
      const text = state.draft;
      dispatch({ type: 'done', status: { text: `replying to ${pane.target}`, tone: 'info' } });
      ctx.actions.reply(pane, text).then(
        () => dispatch({ type: 'done', status: { text: `replied to ${pane.target}`, tone: 'info' } }),
        (error: unknown) => dispatch({ type: 'done', status: { text: (error as Error).message, tone: 'error' } }),
      );
      return;
    }
    if (name === 'backspace') {
      dispatch({ type: 'edit', field, edit: { kind: 'backspace' }, now: at });
      return;
    }
    if (name === 'ctrl+u') {
      dispatch({ type: 'edit', field, edit: { kind: 'clear' }, now: at });
      return;
    }
    // eslint-disable-next-line no-control-regex
    if (!key.ctrl && !key.meta && input !== '' && !/^[\u0000-\u001f]/.test(input)) {
      dispatch({ type: 'edit', field, edit: { kind: 'insert', text: input }, now: at });
    }
  }

  function runCommand(binding: KeyBinding, at: number) {
    const ctx = current();
    const pane = ctx.selected;
    const visible = ctx.visibleIds;
    const needPane = (): PaneView | null => {
      if (!pane) dispatch({ type: 'status', status: { text: 'no pane selected', tone: 'info' } });
      return pane;
    };
    switch (binding.command) {
      case 'up':
        return dispatch({ type: 'move', visible, delta: -1, now: at });
      case 'down':
        return dispatch({ type: 'move', visible, delta: 1, now: at });
      case 'first':
        return dispatch({ type: 'first', visible, now: at });
      case 'last':
        return dispatch({ type: 'last', visible, now: at });
      case 'next-stuck': {
        const stuck = new Set(
          visible.filter((id) => {
            const view = ctx.byId.get(id);
            return view !== undefined && paneStatus(view, ctx.now, ctx.activeWindowMs) === 'stuck';
          }),
        );
        return dispatch({ type: 'next-stuck', visible, stuck, now: at });
      }
      case 'jump': {
        const target = needPane();
        if (!target) return;
        ctx.actions.jumpTo(target).then(
          (result) =>
            dispatch({ type: 'done', status: { text: result.message, tone: result.switched ? 'info' : 'warn' } }),
          (error: unknown) => dispatch({ type: 'done', status: { text: (error as Error).message, tone: 'error' } }),
        );
        return;
      }
      case 'reply': {
        const target = needPane();
        if (target) dispatch({ type: 'start-reply', paneId: target.pane.paneId, now: at });
        return;
      }
      case 'answer': {
        const target = needPane();
        if (target) dispatch({ type: 'start-answer', paneId: target.pane.paneId, now: at });
        return;
      }
      case 'snooze': {
        const target = needPane();
        if (!target) return;
        if (target.state !== 'stuck') {
          dispatch({ type: 'status', status: { text: `${target.target} is not stuck`, tone: 'info' } });
          return;
        }
        ctx.engine.acknowledge(target.pane.paneId);
        dispatch({
          type: 'status',
          status: { text: `snoozed ${target.target} until its screen changes`, tone: 'info' },
        });
        return;
      }
      case 'filter':
        return dispatch({ type: 'mode', mode: 'filter', now: at });
      case 'help':
        return dispatch({ type: 'mode', mode: 'help', now: at });
      case 'bridge':
      case 'attach':
        toggleService(binding.command);
        return;
      case 'quit':
        ctx.actions.quit();
        return;
      case 'send':
        return;
    }
  }

  function toggleService(name: ServiceName) {
    const ctx = current();
    if (ctx.serviceState[name].status === 'unavailable') {
      dispatch({ type: 'status', status: { text: `${SERVICE_TITLES[name]}: not available yet`, tone: 'warn' } });
      return;
    }
    const toggle = name === 'bridge' ? ctx.actions.toggleBridge : ctx.actions.toggleAttach;
    toggle.call(ctx.actions).then(
      () => {
        const state = services.getSnapshot()[name];
        const link = state.status === 'on' ? state.link : undefined;
        dispatch({ type: 'status', status: link ? { text: `${SERVICE_TITLES[name]}: open ${link}`, tone: 'info' } : null });
      },
      (error: unknown) =>
        dispatch({
          type: 'status',
          status: { text: `${SERVICE_TITLES[name]}: ${(error as Error).message}`, tone: 'error' },
        }),
    );
  }

  useInput(handleInput);

  const width = size.columns;
  const body =
    ui.mode === 'help' ? (
      <HelpOverlay width={width} height={size.rows - 4} />
    ) : (
      <Box flexDirection={layout.preview === 'side' ? 'row' : 'column'}>
        <Box flexDirection="column" width={layout.listWidth} height={layout.listHeight + (layout.columnHeader ? 1 : 0)}>
          {layout.columnHeader ? <ColumnHeader columns={layout.columns} /> : null}
          {snapshot.status !== 'ok' && snapshot.panes.length === 0 ? (
            <Text {...(color && snapshot.status !== 'starting' ? { color: 'yellow' } : {})}>
              {clip(
                snapshot.statusMessage ?? (snapshot.status === 'starting' ? 'reading panes…' : snapshot.status),
                layout.listWidth,
              )}
            </Text>
          ) : rows.length === 0 ? (
            <Text dimColor>{ui.filter !== '' ? `no pane matches "${ui.filter}"` : 'no panes'}</Text>
          ) : (
            rows.map((row) => (
              <PaneRow
                key={row.paneId}
                row={row}
                columns={layout.columns}
                selected={row.paneId === selectedId}
                color={color}
              />
            ))
          )}
        </Box>
        {layout.preview !== 'none' && selected ? (
          <Box marginLeft={layout.preview === 'side' ? 3 : 0}>
            <Preview
              title={`${selected.target} · ${paneLabel(selected, hostName)}`}
              lines={selected.lines}
              width={layout.previewWidth}
              height={layout.previewHeight}
            />
          </Box>
        ) : null}
      </Box>
    );

  return (
    <Box flexDirection="column" width={width}>
      <Header
        server={snapshot.server}
        label={label}
        counts={counts}
        services={serviceState}
        width={width}
        color={color}
      />
      {body}
      <StatusLine
        ui={ui}
        target={ui.targetId === null ? null : (byId.get(ui.targetId)?.target ?? null)}
        width={width}
        color={color}
      />
      <Footer width={width} />
    </Box>
  );
}

function ColumnHeader({ columns }: { readonly columns: ReturnType<typeof planLayout>['columns'] }) {
  const text =
    '  ' +
    'STATE'.padEnd(columns.badge) +
    ' ' +
    'PANE'.padEnd(columns.target) +
    (columns.label > 0 ? ` ${'TITLE / COMMAND'.slice(0, columns.label).padEnd(columns.label)}` : '') +
    (columns.cwd > 0 ? ` ${'CWD'.padEnd(columns.cwd)}` : '') +
    ` ${'QUIET'.padStart(columns.timer)}`;
  return (
    <Text dimColor wrap="truncate-end">
      {text}
    </Text>
  );
}

const ANSWER_HINT = '1 2 3 y n Enter · e Esc · ↑↓ · c/d/z C-c/C-d/C-z (asks) · Esc cancels';

function StatusLine({
  ui,
  target,
  width,
  color,
}: {
  ui: UiState;
  target: string | null;
  width: number;
  color: boolean;
}) {
  const on = target ?? '?';
  switch (ui.mode) {
    case 'reply':
      return (
        <Text wrap="truncate-start">
          <Text bold>{`reply to ${on} › `}</Text>
          {ui.draft}
          <Text inverse> </Text>
          <Text dimColor>{'  Enter sends · Esc cancels'}</Text>
        </Text>
      );
    case 'filter':
      return (
        <Text wrap="truncate-start">
          <Text bold>{'/'}</Text>
          {ui.filter}
          <Text inverse> </Text>
          <Text dimColor>{'  Enter keeps · Esc clears'}</Text>
        </Text>
      );
    case 'answer':
      return <Text wrap="truncate-end">{clip(`answer ${on} (${ANSWER_PREFIX} …): ${ANSWER_HINT}`, width)}</Text>;
    case 'confirm':
      return (
        <Text wrap="truncate-end" {...(color ? { color: 'yellow' } : {})} bold>
          {clip(`send ${ui.pending?.label ?? ''} to ${on}? y sends, any other key cancels`, width)}
        </Text>
      );
    default: {
      if (ui.status) {
        const tone = ui.status.tone === 'error' ? 'red' : ui.status.tone === 'warn' ? 'yellow' : undefined;
        return (
          <Text wrap="truncate-end" {...(color && tone ? { color: tone } : {})}>
            {clip(ui.status.text, width)}
          </Text>
        );
      }
      if (ui.filter !== '')
        return (
          <Text dimColor wrap="truncate-end">
            {clip(`filter: ${ui.filter} (Esc clears)`, width)}
          </Text>
        );
      return <Text> </Text>;
    }
  }
}

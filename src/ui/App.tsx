// The dashboard. It reads the engine's store and the services store, keeps its own state in a
// reducer (state.ts), and turns key presses into actions through the keymap table. It renders;
// everything that touches tmux or the servers goes through the DashboardActions it is given.
//
// Keys act on what was drawn: the key handler reads the snapshot of the last render, not a newer
// one, and every answer carries the screen hash the person saw, so that nothing is typed into a
// pane whose screen changed since (see actions.ts).

import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { Box, useInput, type Key } from 'ink';
import { Text } from './Text.js';
import type { Clock, EngineHandle, EngineSnapshot, PaneView } from '../engine/types.js';
import { LOCAL_HOST, systemClock } from '../engine/types.js';
import type { DashboardActions, TypeRequest } from './actions.js';
import { Footer } from './Footer.js';
import { clip, formatQuiet, previewLines, shortCwd } from './format.js';
import { useFocus } from './use-focus.js';
import { Header, headerText } from './Header.js';
import { HelpOverlay } from './HelpOverlay.js';
import { findBinding, keyLabel, keyName, type KeyBinding } from './keymap.js';
import { planLayout } from './layout.js';
import { ANSWERED_BADGE, OFFLINE_BADGE, countStatuses, paneStatus, quietMs, statusBadge } from '../engine/pane-status.js';
import { HostHeader } from './HostHeader.js';
import { hostDown, hostLine, paneWhere, type HostGroup } from './hosts.js';
import { matchesFilter, paneLabel } from './pane-status.js';
import { PaneRow, type RowModel } from './PaneRow.js';
import { Preview } from './Preview.js';
import { StatusLine } from './StatusLine.js';
import { ColumnHeader } from './ColumnHeader.js';
import { answerKeysText, answerRefusal, describeChoice, findAnswer, paneAnswers } from './quick-answers.js';
import { SERVICE_TITLES, UNAVAILABLE_SERVICES, type ServiceName, type ServicesStore } from './services.js';
import { SETTLE_MS, createUiStore, visibleRows, type StatusMessage, type UiState, type UiStore } from './state.js';
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

  const { byId, visibleIds, selectedId, groups } = useMemo(
    () => visibleRows(ui, snapshot.panes, matchesFilter, snapshot.hosts),
    [ui, snapshot.panes, snapshot.hosts],
  );
  const loading = snapshot.status === 'starting';
  const selected = selectedId === null ? null : (byId.get(selectedId) ?? null);
  // A pane whose host is down takes no answer: none is offered for it.
  const answers = useMemo(() => paneAnswers(selected?.online === false ? null : selected), [selected]);
  const targetWidth = useMemo(() => Math.max(6, ...snapshot.panes.map((v) => v.target.length)), [snapshot.panes]);
  // Panes on a host that is down are counted apart: their last state may no longer be true.
  const onlinePanes = useMemo(() => snapshot.panes.filter((v) => v.online), [snapshot.panes]);
  const offlineCount = snapshot.panes.length - onlinePanes.length;
  // The header's height (one or two lines) barely depends on the counts: those at the snapshot do.
  const roughCounts = loading ? null : countStatuses(onlinePanes, snapshot.updatedAt, activeWindowMs);
  const headerLines = headerText(snapshot.server, label, roughCounts, serviceState, size.columns, offlineCount).lines;
  const lines = useMemo(() => listLines(visibleIds, groups), [visibleIds, groups]);
  const shownLines = useMemo(
    () => (selected ? previewLines(selected.lines, size.columns, Number.POSITIVE_INFINITY).length : 0),
    [selected?.lines, size.columns],
  );
  const layout = planLayout(size.columns, size.rows, targetWidth, headerLines, {
    rows: visibleIds.length,
    groupLines: groups?.length ?? 0,
    previewLines: shownLines,
  });

  useFocus(engine, layout.preview !== 'none' && selected !== null && selected.online ? selected.key : null);

  // Scroll as little as possible: the top rows (the most urgent) stay in view until the selection
  // leaves the window, and the window never hangs past the last line, so every line is used.
  const listRows = Math.max(1, layout.listHeight);
  const scrollRef = useRef(0);
  const { top: scrollTop, shown: shownLinesInList } = scrollList(lines, selectedId, scrollRef.current, listRows);
  scrollRef.current = scrollTop;
  const shownIds = shownLinesInList.flatMap((line) => (line.kind === 'pane' ? [line.key] : []));
  const shownGroups = shownLinesInList.flatMap((line) => (line.kind === 'host' ? [line.group] : []));

  const displayKey = useCallback(
    (at: number) =>
      shownIds
        .map((id) => {
          const view = byId.get(id) as PaneView;
          return `${paneStatus(view, at, activeWindowMs)}${formatQuiet(quietMs(view, at))}`;
        })
        .join() +
      shownGroups.map((group) => hostLine(group, at)).join() +
      countStatuses(onlinePanes, at, activeWindowMs).quiet,
    [shownIds, shownGroups, byId, activeWindowMs, onlinePanes],
  );
  const tickNow = useNow(clock, tickMs, displayKey);
  const now = Math.max(tickNow, snapshot.updatedAt);

  // Take new snapshots (and idle time) into the row order.
  useEffect(() => {
    dispatch({ type: 'sync', panes: snapshot.panes, now });
  }, [snapshot.panes, now]);

  const answered = ui.answered;
  const rowModel = (id: string): RowModel => {
    const view = byId.get(id) as PaneView;
    const isAnswered = answered !== null && answered.key === id && answered.hash === view.contentHash;
    const status = isAnswered ? 'answered' : paneStatus(view, now, activeWindowMs);
    return {
      key: id,
      status,
      badge: !view.online
        ? OFFLINE_BADGE
        : status === 'answered'
          ? ANSWERED_BADGE
          : statusBadge(status, view.reason, layout.columns.shortBadge),
      target: view.target,
      label: paneLabel(view, hostName),
      cwd: shortCwd(view.pane.cwd, home, layout.columns.cwd),
      timer: formatQuiet(quietMs(view, now)),
      disagrees: (view.hook?.disagreement ?? null) !== null,
      offline: !view.online,
    };
  };
  const counts = loading ? null : countStatuses(onlinePanes, now, activeWindowMs);

  // What this render draws is what keys act on (see the file comment).
  const drawn = useRef<EngineSnapshot>(snapshot);
  drawn.current = snapshot;

  // Values for the key handler, read fresh on every key (several keys can arrive between renders).
  const latest = useRef({ actions, engine, services, serviceState, activeWindowMs });
  latest.current = { actions, engine, services, serviceState, activeWindowMs };
  const current = useCallback(() => {
    const state = uiStore.getState();
    const shown = drawn.current;
    const rowsNow = visibleRows(state, shown.panes, matchesFilter, shown.hosts);
    const selectedView = rowsNow.selectedId === null ? null : (rowsNow.byId.get(rowsNow.selectedId) ?? null);
    return {
      ...latest.current,
      ui: state,
      ...rowsNow,
      selected: selectedView,
      hosts: shown.hosts,
      now: Math.max(clock.now(), shown.updatedAt),
    };
  }, [uiStore, clock]);

  /**
   * Types into a pane on the person's behalf, marking it answered from the start so that a second
   * answer cannot follow before its screen changes. `hash`: the screen the person chose on.
   */
  const typeInto = (pane: PaneView, request: TypeRequest, what: string, hash: string | null) => {
    const target = paneWhere(pane);
    if (hash !== null) {
      dispatch({
        type: 'answered',
        key: pane.key,
        hash,
        status: { text: `sending ${what} to ${target}`, tone: 'info' },
      });
    } else {
      dispatch({ type: 'done', status: { text: `sending ${what} to ${target}`, tone: 'info' } });
    }
    return latest.current.actions.type(pane, request).then(
      () => dispatch({ type: 'status', status: { text: `sent ${what} to ${target}`, tone: 'info' } }),
      (error: unknown) => {
        dispatch({ type: 'unanswered', key: pane.key });
        dispatch({ type: 'status', status: { text: errorText(error), tone: 'error' } });
        throw error;
      },
    );
  };

  const handleKey = useCallback(
    (input: string, key: Key) => {
      const ctx = current();
      const name = keyName(input, key);
      const at = clock.now();
      const report = (status: StatusMessage | null) => dispatch({ type: 'done', status });

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
          const pane = pending ? ctx.byId.get(pending.key) : undefined;
          const down = pane ? hostDown(pane, ctx.hosts) : null;
          if (name === 'y' && down !== null) {
            report({ text: `${down}: not sent`, tone: 'warn' });
          } else if (name === 'y' && pending && pane) {
            typeInto(pane, { items: pending.items, enter: false, shownHash: null }, pending.label, null).catch(
              () => {},
            );
          } else {
            report({ text: pending && !pane ? 'that pane has closed; nothing was sent' : 'cancelled', tone: 'info' });
          }
          return;
        }
        case 'answer': {
          if (name === 'escape') {
            report(null);
            return;
          }
          const pane = ctx.ui.targetId === null ? undefined : ctx.byId.get(ctx.ui.targetId);
          if (!pane) {
            report({ text: 'that pane has closed; nothing was sent', tone: 'warn' });
            return;
          }
          const down = hostDown(pane, ctx.hosts);
          if (down !== null) {
            report({ text: `${down}: not sent`, tone: 'warn' });
            return;
          }
          const answers = paneAnswers(pane);
          const choice = findAnswer(answers, name);
          if (!choice) {
            const valid = answers.choices.map((c) => keyLabel(c.key)).join(' ');
            report({
              text: `no quick answer ${keyLabel(name) || '?'} for ${paneWhere(pane)}${valid ? ` (valid: ${valid})` : ''}; nothing was sent`,
              tone: 'info',
            });
            return;
          }
          const what = describeChoice(choice);
          if (choice.confirm) {
            dispatch({
              type: 'confirm',
              pending: { key: pane.key, items: choice.items, label: what },
              now: at,
            });
            return;
          }
          const refused = answerRefusal(pane, ctx.ui.targetHash, ctx.ui.answered);
          if (refused) {
            report({ text: refused, tone: 'warn' });
            return;
          }
          const hash = ctx.ui.targetHash ?? pane.contentHash;
          typeInto(pane, { items: choice.items, enter: choice.enter, shownHash: hash }, what, hash).catch(() => {});
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
      const text = state.draft;
      // A reply is never lost: when it cannot go out, the draft stays and Enter tries again.
      const keep = (reason: string) =>
        dispatch({
          type: 'reply-refused',
          key: state.targetId ?? '',
          draft: text,
          status: { text: `${reason} (Enter sends, Esc cancels)`, tone: 'warn' },
        });
      if (!pane) {
        dispatch({ type: 'done', status: { text: 'that pane has closed; the reply was not sent', tone: 'warn' } });
        return;
      }
      const down = hostDown(pane, ctx.hosts);
      if (down !== null) {
        keep(`${down}: not sent`);
        return;
      }
      const hash = state.targetHash ?? pane.contentHash;
      if (hash !== pane.contentHash) {
        keep(`${paneWhere(pane)} changed since you began the reply; look at it again`);
        return;
      }
      typeInto(
        pane,
        { items: text === '' ? [] : [{ kind: 'text', text }], enter: true, shownHash: hash },
        'the reply',
        hash,
      ).catch((error: unknown) => keep(errorText(error)));
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
      if (!pane) {
        dispatch({ type: 'status', status: { text: 'no pane selected', tone: 'info' } });
        return null;
      }
      // The selection moved by itself a moment ago: the person may not have seen where it went.
      if (at - ctx.ui.movedAt < SETTLE_MS) {
        dispatch({
          type: 'status',
          status: { text: `the selection just moved to ${paneWhere(pane)}; look, then press again`, tone: 'warn' },
        });
        dispatch({ type: 'settled', now: at });
        return null;
      }
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
            // A pane whose host is down cannot be answered: the way to the next stuck pane skips it.
            return view !== undefined && view.online && paneStatus(view, ctx.now, ctx.activeWindowMs) === 'stuck';
          }),
        );
        return dispatch({ type: 'next-stuck', visible, stuck, now: at });
      }
      case 'jump': {
        const target = needPane();
        if (!target) return;
        const down = hostDown(target, ctx.hosts);
        if (down !== null) {
          dispatch({ type: 'status', status: { text: `${down}: cannot jump to ${target.key}`, tone: 'warn' } });
          return;
        }
        // switch-client moves this machine's tmux client; a pane elsewhere is reached by attaching.
        if (target.host !== LOCAL_HOST) {
          dispatch({
            type: 'status',
            status: {
              text: `${target.key} is on ${target.host}: attach with corral attach ${target.key}`,
              tone: 'warn',
            },
          });
          return;
        }
        ctx.actions.jumpTo(target).then(
          (result) =>
            dispatch({ type: 'done', status: { text: result.message, tone: result.switched ? 'info' : 'warn' } }),
          (error: unknown) => dispatch({ type: 'done', status: { text: (error as Error).message, tone: 'error' } }),
        );
        return;
      }
      case 'reply': {
        const target = needPane();
        if (!target || refuseOffline(target, ctx.hosts)) return;
        if (paneAnswers(target).kind === 'secret') {
          dispatch({
            type: 'status',
            status: {
              text: `${paneWhere(target)} asks for a password or PIN: type it in the pane itself (Enter jumps there)`,
              tone: 'warn',
            },
          });
          return;
        }
        dispatch({ type: 'start-reply', key: target.key, hash: target.contentHash, now: at });
        return;
      }
      case 'answer': {
        const target = needPane();
        if (target && !refuseOffline(target, ctx.hosts))
          dispatch({ type: 'start-answer', key: target.key, hash: target.contentHash, now: at });
        return;
      }
      case 'snooze': {
        const target = needPane();
        if (!target) return;
        const down = hostDown(target, ctx.hosts);
        if (down !== null) {
          dispatch({ type: 'status', status: { text: `${down}: its last state may be stale; not snoozed`, tone: 'warn' } });
          return;
        }
        if (target.state !== 'stuck') {
          dispatch({ type: 'status', status: { text: `${paneWhere(target)} is not stuck`, tone: 'info' } });
          return;
        }
        ctx.engine.acknowledge(target.key);
        dispatch({
          type: 'status',
          status: { text: `snoozed ${paneWhere(target)} until it shows another prompt or new output`, tone: 'info' },
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
      case 'answer-option':
        return;
    }
  }

  /** Says so and returns true when the pane's host is down: nothing can be typed into it. */
  function refuseOffline(pane: PaneView, hosts: EngineSnapshot['hosts']): boolean {
    const down = hostDown(pane, hosts);
    if (down === null) return false;
    dispatch({ type: 'status', status: { text: `${down}: not sent`, tone: 'warn' } });
    return true;
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
        // Say where it is when it comes on (the link to open, when the service gives one).
        const state = latest.current.services.getSnapshot()[name];
        const where = state.link ?? state.url;
        const text = state.status === 'on' && where ? `${SERVICE_TITLES[name]} on: ${where}` : null;
        dispatch({ type: 'status', status: text === null ? null : { text, tone: 'info' } });
      },
      (error: unknown) =>
        dispatch({
          type: 'status',
          status: { text: `${SERVICE_TITLES[name]}: ${(error as Error).message}`, tone: 'error' },
        }),
    );
  }

  useInput(handleInput);

  const modeTarget = ui.targetId === null ? undefined : byId.get(ui.targetId);

  const width = size.columns;
  const body =
    ui.mode === 'help' ? (
      <HelpOverlay
        width={width}
        height={size.rows - 4}
        answers={answers}
        target={selected ? paneWhere(selected) : null}
        down={selected ? hostDown(selected, snapshot.hosts) : null}
      />
    ) : (
      <Box flexDirection={layout.preview === 'side' ? 'row' : 'column'}>
        <Box flexDirection="column" width={layout.listWidth} height={layout.listHeight + (layout.columnHeader ? 1 : 0)}>
          {layout.columnHeader ? <ColumnHeader columns={layout.columns} /> : null}
          {loading || (snapshot.status !== 'ok' && snapshot.panes.length === 0 && groups === null) ? (
            <Text {...(color && !loading ? { color: 'yellow' } : {})}>
              {clip(
                snapshot.statusMessage ??
                  (loading ? `loading: asking ${snapshot.server} for its panes…` : snapshot.status),
                layout.listWidth,
              )}
            </Text>
          ) : shownLinesInList.length === 0 ? (
            <Text dimColor>{ui.filter !== '' ? `no pane matches "${ui.filter}"` : 'no panes'}</Text>
          ) : (
            shownLinesInList.map((line) =>
              line.kind === 'host' ? (
                <HostHeader
                  key={`host ${line.group.host}`}
                  host={line.group.host}
                  health={line.group.health}
                  text={hostLine(line.group, now)}
                  width={layout.listWidth}
                  color={color}
                />
              ) : (
                <PaneRow
                  key={line.key}
                  row={rowModel(line.key)}
                  columns={layout.columns}
                  selected={line.key === selectedId}
                  color={color}
                />
              ),
            )
          )}
        </Box>
        {layout.preview !== 'none' && selected ? (
          <Box marginLeft={layout.preview === 'side' ? 3 : 0}>
            <Preview
              title={`${paneWhere(selected)} · ${paneLabel(selected, hostName)}${selected.online ? '' : ' · offline, last screen seen'}`}
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
        offline={offlineCount}
      />
      {body}
      <StatusLine
        ui={ui}
        target={modeTarget ? paneWhere(modeTarget) : null}
        answers={
          ui.mode === 'answer' ? paneAnswers(modeTarget ?? null) : answers
        }
        width={width}
        color={color}
      />
      <Footer width={width} answerKeys={answerKeysText(answers)} />
    </Box>
  );
}

/** One line of the pane list: a host's header (several hosts only) or a pane's row. */
type ListLine = { readonly kind: 'host'; readonly group: HostGroup } | { readonly kind: 'pane'; readonly key: string };

function listLines(keys: readonly string[], groups: readonly HostGroup[] | null): ListLine[] {
  if (groups === null) return keys.map((key) => ({ kind: 'pane', key }));
  return groups.flatMap((group): ListLine[] => [
    { kind: 'host', group },
    ...group.keys.map((key): ListLine => ({ kind: 'pane', key })),
  ]);
}

/**
 * The lines in view for `rows` lines of room, starting near `lastTop`: the selected row is always in
 * view, and a window that begins inside a host's rows repeats that host's line on top, so every row
 * shown is under its host's name.
 */
function scrollList(
  lines: readonly ListLine[],
  selectedKey: string | null,
  lastTop: number,
  rows: number,
): { top: number; shown: ListLine[] } {
  const found = selectedKey === null ? -1 : lines.findIndex((l) => l.kind === 'pane' && l.key === selectedKey);
  const selected = Math.max(0, found);
  let top = Math.min(lastTop, selected);
  if (selected >= top + rows) top = selected - rows + 1;
  top = Math.max(0, Math.min(top, lines.length - rows));
  const sticky = rows >= 2 && lines.some((l) => l.kind === 'host');
  // The repeated host line takes the top line: the selected row must not be the one it covers.
  if (sticky && top > 0 && top === selected && lines[top]?.kind === 'pane') top -= 1;
  const shown = lines.slice(top, top + rows);
  if (sticky && top > 0 && shown[0]?.kind === 'pane') {
    for (let i = top - 1; i >= 0; i--) {
      const line = lines[i] as ListLine;
      if (line.kind === 'host') {
        shown[0] = line;
        break;
      }
    }
  }
  return { top, shown };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

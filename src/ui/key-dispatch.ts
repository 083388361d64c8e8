// The dashboard's key handling as a pure function: one key press and the scene it was pressed on
// (the UI state, the rows drawn, the hosts, the services) in; the UI actions to apply and the
// effects to run out. Nothing here types, jumps or toggles: App runs the effects (key-effects.ts).
//
// Keys act on what was drawn: the scene is the snapshot of the last render, and every answer
// carries the screen hash the person saw, so nothing is typed into a pane whose screen changed.

import type { HostHealth, PaneView } from '../engine/types.js';
import { paneStatus } from '../engine/pane/pane-status.js';
import { notReadyForInput } from '../engine/typing/input-ready.js';
import { collapsedHostId, collapsedHostOf, hostDown, paneWhere } from './hosts.js';
import { findBinding, keyLabel, lineEditKey, type CommandName } from './keymap.js';
import type { LineEdit } from './line-editor.js';
import { answerBlockedReason, describeChoice, findAnswer, paneAnswers, type PaneAnswers } from './quick-answers.js';
import { SERVICE_TITLES, type ServiceName, type ServicesSnapshot } from './service-state.js';
import { SETTLE_MS, type StatusMessage, type UiAction, type UiState, type VisibleRows } from './state.js';
import type { SendItem } from '../engine/typing/keys.js';
import { branchNameProblem } from '../engine/launch/worktree.js';
import { draftFor, type StartDraft } from './start-draft.js';

/** One key press: its name in the keymap's spelling, the text it carries, and its modifiers. */
export interface KeyPress {
  readonly name: string;
  readonly input: string;
  readonly ctrl: boolean;
  readonly meta: boolean;
}

/** What a key acts on: the dashboard's state and what the last render drew. */
export interface KeyScene {
  readonly ui: UiState;
  readonly rows: VisibleRows;
  readonly hosts: readonly HostHealth[];
  readonly services: ServicesSnapshot;
  /** The clock's time of the key press. */
  readonly now: number;
  /** The time states are judged at (the clock, or the snapshot when it is newer). */
  readonly stateNow: number;
  readonly activeWindowMs: number;
}

/** Something a key asks of the outside world; App runs it and applies what comes back. */
export type KeyEffect =
  | TypeEffect
  | { readonly kind: 'jump'; readonly pane: PaneView }
  | { readonly kind: 'snooze'; readonly key: string }
  | { readonly kind: 'toggle'; readonly service: ServiceName }
  /** Starts the draft's command in a new window (the draft comes back if that fails). */
  | { readonly kind: 'start'; readonly draft: StartDraft }
  /** Ends the pane, if it still runs the process seen (`pid`). */
  | { readonly kind: 'end'; readonly pane: PaneView; readonly pid: number }
  | { readonly kind: 'quit' };

/**
 * Typing into a pane: an answer the prompt offers, keys as they are, or a reply. `shownHash` is
 * the screen the person chose on (null: a signal confirmed by the pane's name); `what` names it
 * in the status line (`2`, `y + Enter`, `the reply`).
 */
export type TypeEffect = { readonly pane: PaneView; readonly what: string } & (
  | { readonly kind: 'answer'; readonly option: string; readonly shownHash: string }
  | { readonly kind: 'send'; readonly items: readonly SendItem[]; readonly shownHash: string | null }
  | { readonly kind: 'reply'; readonly text: string; readonly shownHash: string }
);

export interface KeyOutcome {
  readonly actions: readonly UiAction[];
  readonly effects: readonly KeyEffect[];
}

const NOTHING: KeyOutcome = { actions: [], effects: [] };

const act = (...actions: UiAction[]): KeyOutcome => ({ actions, effects: [] });
const say = (text: string, tone: StatusMessage['tone'] = 'info'): KeyOutcome =>
  act({ type: 'status', status: { text, tone } });
const finish = (text: string, tone: StatusMessage['tone'] = 'info'): KeyOutcome =>
  act({ type: 'done', status: { text, tone } });

/** Keys this soon after the last ignored one still belong to the refused sequence. */
export const SWALLOW_MS = 1_000;

export function dispatchKey(scene: KeyScene, key: KeyPress): KeyOutcome {
  if (key.name === 'ctrl+c' && scene.ui.mode !== 'answer') return { actions: [], effects: [{ kind: 'quit' }] };
  switch (scene.ui.mode) {
    case 'swallow':
      return swallowKey(scene, key);
    case 'help':
      return act({ type: 'mode', mode: 'normal', now: scene.now });
    case 'reply':
    case 'filter':
      return editLine(scene, key);
    case 'confirm':
      return confirmKey(scene, key);
    case 'answer':
      return answerKey(scene, key);
    case 'start':
      return startKey(scene, key);
    case 'end':
      return endKey(scene, key);
    case 'normal':
      // The key is the answer to whatever the status line said: the message goes.
      return scene.ui.status === null ? normalKey(scene, key) : after(act({ type: 'status', status: null }), normalKey(scene, key));
  }
}

const after = (first: KeyOutcome, then: KeyOutcome): KeyOutcome => ({
  actions: [...first.actions, ...then.actions],
  effects: [...first.effects, ...then.effects],
});

/**
 * After a refused `a` or `r`: the keys of that sequence do nothing; Esc (which also clears the
 * refusal), Enter or a pause end it.
 * `a` or `r` again is a new try (what "press again" asks for), not part of the refused sequence.
 */
function swallowKey(scene: KeyScene, key: KeyPress): KeyOutcome {
  const back = act({ type: 'done', status: null });
  const retry = findBinding('normal', key.name)?.command;
  if (scene.now - scene.ui.lastInputAt >= SWALLOW_MS || retry === 'answer' || retry === 'reply') return after(back, normalKey(scene, key));
  if (key.name === 'escape') return back;
  // Enter ends the refused sequence it belonged to ("a, Enter"): the refusal stays to be read.
  if (key.name === 'enter') return act({ type: 'done', status: scene.ui.status });
  return act({ type: 'swallow', status: scene.ui.status, now: scene.now });
}

/** Refuses a key that starts a sequence, saying why; what follows of the sequence is ignored. */
function refuseSequence(scene: KeyScene, text: string): KeyOutcome {
  return act({ type: 'swallow', status: { text, tone: 'warn' }, now: scene.now });
}

/** Marks the pane answered from the start (so no second answer follows) and types. */
function typingOutcome(effect: TypeEffect): KeyOutcome {
  const status: StatusMessage = { text: `sending ${effect.what} to ${paneWhere(effect.pane)}`, tone: 'info' };
  const mark: UiAction =
    effect.shownHash !== null
      ? { type: 'answered', key: effect.pane.key, hash: effect.shownHash, status }
      : { type: 'done', status };
  return { actions: [mark], effects: [effect] };
}

function paneOf(scene: KeyScene, key: string | null): PaneView | undefined {
  return key === null ? undefined : scene.rows.byId.get(key);
}

function confirmKey(scene: KeyScene, key: KeyPress): KeyOutcome {
  const pending = scene.ui.pending;
  const pane = pending ? paneOf(scene, pending.key) : undefined;
  const down = pane ? hostDown(pane, scene.hosts) : null;
  if (key.name === 'y' && down !== null) return finish(`${down}: not sent`, 'warn');
  if (key.name === 'y' && pending?.then === 'reply' && pane) {
    return act({ type: 'start-reply', key: pane.key, hash: pending.hash ?? pane.contentHash, now: scene.now });
  }
  if (key.name === 'y' && pending && pane) {
    return typingOutcome({ kind: 'send', pane, items: pending.items, shownHash: null, what: pending.label });
  }
  return finish(pending && !pane ? 'that pane has closed; nothing was sent' : 'cancelled');
}

/**
 * The key after `a`: one of the prompt's answers, or a key sent as it is (an arrow in a menu; Esc
 * or a Ctrl key after a confirmation). Any other key ends the sequence, saying why nothing was sent.
 */
function answerKey(scene: KeyScene, key: KeyPress): KeyOutcome {
  const pane = paneOf(scene, scene.ui.targetId);
  if (!pane) return finish('that pane has closed; nothing was sent', 'warn');
  const down = hostDown(pane, scene.hosts);
  if (down !== null) return finish(`${down}: not sent`, 'warn');
  const answers = paneAnswers(pane);
  const choice = findAnswer(answers, key.name);
  if (!choice) return finish(noSuchAnswer(scene, pane, answers, key), 'warn');
  const what = describeChoice(choice);
  if (choice.source !== 'prompt' && choice.confirm) {
    return act({ type: 'confirm', pending: { key: pane.key, items: choice.items, label: what }, now: scene.now });
  }
  const refused = answerBlockedReason(pane, scene.ui.targetHash, scene.ui.answered);
  if (refused) return finish(refused, 'warn');
  const shownHash = scene.ui.targetHash ?? pane.contentHash;
  return typingOutcome(
    choice.source === 'prompt'
      ? { kind: 'answer', pane, option: choice.option, shownHash, what }
      : { kind: 'send', pane, items: choice.items, shownHash, what },
  );
}

/** Why a key after `a` answers nothing: the screen changed, there is no prompt, or no such option. */
function noSuchAnswer(scene: KeyScene, pane: PaneView, answers: PaneAnswers, key: KeyPress): string {
  const changed = answerBlockedReason(pane, scene.ui.targetHash, scene.ui.answered);
  if (changed) return changed;
  const name = keyLabel(key.name) || '?';
  if (answers.kind === null) return `${paneWhere(pane)} shows no prompt now, so ${name} answers nothing; nothing was sent`;
  const valid = answers.choices.map((c) => keyLabel(c.key)).join(' ');
  return `no quick answer ${name} for ${paneWhere(pane)}${valid ? ` (valid: ${valid})` : ''}; nothing was sent`;
}

function editLine(scene: KeyScene, key: KeyPress): KeyOutcome {
  const { ui, now } = scene;
  const field = ui.mode === 'reply' ? 'draft' : 'filter';
  switch (key.name) {
    case 'escape':
      return field === 'filter' ? leaveFilter(scene, { type: 'clear-filter', now }) : finish('reply cancelled');
    case 'enter':
      return field === 'filter' ? leaveFilter(scene, { type: 'mode', mode: 'normal', now }) : sendReply(scene);
  }
  const edit = lineEdit(key);
  return edit === null ? NOTHING : act({ type: 'edit', field, edit, now });
}

/** What a key does in a text field: an edit from the table (LINE_KEYS), typed text, or nothing. */
function lineEdit(key: KeyPress): LineEdit | null {
  const kind = lineEditKey(key.name);
  if (kind !== null) return { kind };
  // eslint-disable-next-line no-control-regex
  if (key.ctrl || key.meta || key.input === '' || /^[\u0000-\u001f\u007f]/.test(key.input)) return null;
  return { kind: 'insert', text: key.input };
}

/**
 * Leaves the filter (or clears it) with the pane selected in it still selected: the filtered list
 * shows its first match when the pane chosen before is filtered out, and that is what the person
 * saw and chose.
 */
function leaveFilter(scene: KeyScene, leave: UiAction): KeyOutcome {
  const chosen = scene.rows.selectedId;
  return chosen === null ? act(leave) : act(leave, { type: 'choose', key: chosen, now: scene.now });
}

/** Enter in a reply: types it, unless the pane went away or changed; a refused reply keeps its text. */
function sendReply(scene: KeyScene): KeyOutcome {
  const { ui } = scene;
  const pane = paneOf(scene, ui.targetId);
  const text = ui.draft;
  const keep = (reason: string): KeyOutcome =>
    act({
      type: 'reply-refused',
      key: ui.targetId ?? '',
      draft: text,
      status: { text: `${reason} (Enter sends, Esc cancels)`, tone: 'warn' },
    });
  if (!pane) return finish('that pane has closed; the reply was not sent', 'warn');
  const down = hostDown(pane, scene.hosts);
  if (down !== null) return keep(`${down}: not sent`);
  const hash = ui.targetHash ?? pane.contentHash;
  if (hash !== pane.contentHash) return keep(`${paneWhere(pane)} changed since you began the reply; look at it again`);
  return typingOutcome({ kind: 'reply', pane, text, shownHash: hash, what: 'the reply' });
}

function normalKey(scene: KeyScene, key: KeyPress): KeyOutcome {
  if (key.name === 'escape') {
    return scene.ui.filter !== '' ? leaveFilter(scene, { type: 'clear-filter', now: scene.now }) : act({ type: 'status', status: null });
  }
  const binding = findBinding('normal', key.name);
  if (!binding) return NOTHING;
  return (COMMANDS[binding.command] ?? (() => NOTHING))(scene);
}

/**
 * Runs `then` on the selected pane when a key may act on it: there is one, and the selection did
 * not move by itself a moment ago (then the person is told where it went, and the next press acts).
 */
function onSelected(scene: KeyScene, then: (pane: PaneView) => KeyOutcome, sequence = false): KeyOutcome {
  const pane = paneOf(scene, scene.rows.selectedId);
  // A key that starts a sequence (a, r) swallows the rest of it when refused.
  const refuse = (text: string, tone: StatusMessage['tone']) => (sequence ? refuseSequence(scene, text) : say(text, tone));
  const folded = collapsedHostOf(scene.rows.selectedId);
  if (folded !== null) return refuse(`${folded} is collapsed: Space expands it`, 'info');
  if (!pane) return refuse('no pane selected', 'info');
  if (scene.now - scene.ui.movedAt < SETTLE_MS) {
    const moved = refuse(`the selection just moved to ${paneWhere(pane)}; look, then press again`, 'warn');
    return after(moved, act({ type: 'settled', now: scene.now }));
  }
  return then(pane);
}

type CommandHandler = (scene: KeyScene) => KeyOutcome;

function move(type: 'first' | 'last'): CommandHandler {
  return (scene) => act({ type, visible: scene.rows.visibleIds, now: scene.now });
}

function step(delta: number): CommandHandler {
  return (scene) => act({ type: 'move', visible: scene.rows.visibleIds, delta, now: scene.now });
}

function nextStuck(scene: KeyScene): KeyOutcome {
  const visible = scene.rows.visibleIds;
  const stuck = new Set(
    visible.filter((id) => {
      const view = scene.rows.byId.get(id);
      // A pane whose host is down cannot be answered: the way to the next stuck pane skips it.
      return view !== undefined && view.online && paneStatus(view, scene.stateNow, scene.activeWindowMs) === 'stuck';
    }),
  );
  return act({ type: 'next-stuck', visible, stuck, now: scene.now });
}

function jump(scene: KeyScene): KeyOutcome {
  // Enter on a collapsed host's line opens it, as Space does.
  if (collapsedHostOf(scene.rows.selectedId) !== null) return foldHost(scene);
  return onSelected(scene, (pane) => {
    const down = hostDown(pane, scene.hosts);
    if (down !== null) return say(`${down}: cannot jump to ${pane.key}`, 'warn');
    // switch-client moves this machine's tmux client; a pane elsewhere is reached by attaching.
    if (pane.host !== 'local') return say(`${pane.key} is on ${pane.host}: attach with corral attach ${pane.key}`, 'warn');
    return { actions: [], effects: [{ kind: 'jump', pane }] };
  });
}

function startReply(scene: KeyScene): KeyOutcome {
  return onSelected(
    scene,
    (pane) => {
      const down = hostDown(pane, scene.hosts);
      if (down !== null) return refuseSequence(scene, `${down}: a reply cannot go out; what you type is ignored (Esc)`);
      if (paneAnswers(pane).kind === 'secret') {
        return refuseSequence(scene, `${paneWhere(pane)} asks for a password or PIN: type it in the pane itself (Esc, then Enter jumps there)`);
      }
      // A pane that is not at a prompt (vim, a busy agent) would take the keys as commands: ask
      // first, naming what runs there, in the words every surface uses (input-ready.ts).
      const notReady = notReadyForInput(pane);
      if (notReady !== null) {
        return act({ type: 'confirm', pending: { key: pane.key, items: [], label: notReady, then: 'reply', hash: pane.contentHash }, now: scene.now });
      }
      return act({ type: 'start-reply', key: pane.key, hash: pane.contentHash, now: scene.now });
    },
    true,
  );
}

function startAnswer(scene: KeyScene): KeyOutcome {
  return onSelected(
    scene,
    (pane) => {
      const down = hostDown(pane, scene.hosts);
      if (down !== null) return refuseSequence(scene, `${down}: not sent`);
      return act({ type: 'start-answer', key: pane.key, hash: pane.contentHash, now: scene.now });
    },
    true,
  );
}

function snooze(scene: KeyScene): KeyOutcome {
  return onSelected(scene, (pane) => {
    const down = hostDown(pane, scene.hosts);
    if (down !== null) return say(`${down}: its last state may be stale; not snoozed`, 'warn');
    if (pane.state !== 'stuck') return say(`${paneWhere(pane)} is not stuck`);
    return {
      actions: [{ type: 'status', status: { text: `snoozed ${paneWhere(pane)} until it shows another prompt or new output`, tone: 'info' } }],
      effects: [{ kind: 'snooze', key: pane.key }],
    };
  });
}

function toggle(service: ServiceName): CommandHandler {
  return (scene) =>
    scene.services[service].status === 'unavailable'
      ? say(`${SERVICE_TITLES[service]}: not available yet`, 'warn')
      : { actions: [], effects: [{ kind: 'toggle', service }] };
}

const ONE_HOST = 'only one host is watched: there is nothing to collapse';

/**
 * Space: on a pane, collapses its host to one line (the selection goes to that line, unless the
 * pane is among the waiting ones on top, which stay; Space there again expands the host); on a
 * collapsed host's line, expands it and selects its first row.
 */
function foldHost(scene: KeyScene): KeyOutcome {
  const { groups, selectedId, byId, waiting } = scene.rows;
  if (groups === null) return say(ONE_HOST);
  const folded = collapsedHostOf(selectedId);
  if (folded !== null) {
    const first = groups.find((g) => g.host === folded)?.keys[0] ?? null;
    return act({ type: 'collapse', hosts: [folded], collapsed: false, select: first, now: scene.now });
  }
  const pane = selectedId === null ? undefined : byId.get(selectedId);
  if (!pane) return say('no pane selected');
  // A waiting pane stays selected, and Space on it again opens its host.
  if (scene.ui.collapsed.includes(pane.host)) return act({ type: 'collapse', hosts: [pane.host], collapsed: false, select: null, now: scene.now });
  const stays = waiting.includes(pane.key);
  return act({ type: 'collapse', hosts: [pane.host], collapsed: true, select: stays ? null : collapsedHostId(pane.host), now: scene.now });
}

/** H: collapses every host, or expands them all when none is open; the selection follows its line. */
function foldHosts(scene: KeyScene): KeyOutcome {
  const { groups, selectedId, byId, waiting } = scene.rows;
  if (groups === null) return say(ONE_HOST);
  const hosts = groups.map((g) => g.host);
  const collapse = groups.some((g) => !g.collapsed);
  const folded = collapsedHostOf(selectedId);
  const pane = selectedId === null ? undefined : byId.get(selectedId);
  let select: string | null = null;
  if (collapse && pane && !waiting.includes(pane.key)) select = collapsedHostId(pane.host);
  if (!collapse && folded !== null) select = groups.find((g) => g.host === folded)?.keys[0] ?? null;
  return act({ type: 'collapse', hosts, collapsed: collapse, select, now: scene.now });
}

/**
 * What each normal-mode command does. A command the table does not name does nothing here (keys
 * that only exist after the answer prefix); a new command gets a handler beside the others.
 */
const COMMANDS: Partial<Record<CommandName, CommandHandler>> = {
  up: step(-1),
  down: step(1),
  first: move('first'),
  last: move('last'),
  'next-stuck': nextStuck,
  jump,
  reply: startReply,
  answer: startAnswer,
  snooze,
  start: startPrompt,
  end: askEnd,
  filter: (scene) => act({ type: 'mode', mode: 'filter', now: scene.now }),
  'fold-host': foldHost,
  'fold-hosts': foldHosts,
  help: (scene) => act({ type: 'mode', mode: 'help', now: scene.now }),
  bridge: toggle('bridge'),
  attach: toggle('attach'),
  quit: () => ({ actions: [], effects: [{ kind: 'quit' }] }),
};

/** `c`: the start prompt, for the selected pane's host, folder and session (this machine's defaults without one). */
function startPrompt(scene: KeyScene): KeyOutcome {
  if (scene.rows.selectedId === null) return act({ type: 'start-open', draft: draftFor(null), status: null, now: scene.now });
  return onSelected(
    scene,
    (pane) => {
      const down = hostDown(pane, scene.hosts);
      if (down !== null) return refuseSequence(scene, `${down}: nothing can start there now; what you type is ignored (Esc)`);
      return act({ type: 'start-open', draft: draftFor(pane), status: null, now: scene.now });
    },
    true,
  );
}

/** Keys in the start prompt: the command (and, after Tab, the branch) as a line; Enter starts. */
function startKey(scene: KeyScene, key: KeyPress): KeyOutcome {
  const { now } = scene;
  const draft = scene.ui.start;
  if (draft === null) return finish('nothing to start');
  switch (key.name) {
    case 'escape':
      return finish('nothing was started');
    case 'tab':
      return act({ type: 'start-field', now });
    case 'enter':
      return startDraft(scene, draft);
  }
  const edit = lineEdit(key);
  return edit === null ? NOTHING : act({ type: 'start-edit', edit, now });
}

/** Enter: refuses what cannot start (no command, a malformed branch), keeping what was typed. */
function startDraft(scene: KeyScene, draft: StartDraft): KeyOutcome {
  const refuse = (text: string): KeyOutcome => act({ type: 'start-open', draft, status: { text, tone: 'warn' }, now: scene.now });
  if (draft.command.trim() === '') return refuse('type the command to start first (Esc cancels)');
  const branch = draft.branch.trim();
  if (branch !== '') {
    if (draft.cwd === null) return refuse('no folder to make a worktree from: clear the branch (Tab, Ctrl-U) or Esc');
    const problem = branchNameProblem(branch);
    if (problem !== null) return refuse(`${problem} (Tab to fix it, Esc cancels)`);
  }
  return { actions: [{ type: 'done', status: { text: `starting ${draft.command.trim()}…`, tone: 'info' } }], effects: [{ kind: 'start', draft }] };
}

/** `X`: asks before ending the selected pane, naming it (where, its command, its title). */
function askEnd(scene: KeyScene): KeyOutcome {
  return onSelected(
    scene,
    (pane) => {
      const down = hostDown(pane, scene.hosts);
      if (down !== null) return refuseSequence(scene, `${down}: cannot end ${paneWhere(pane)} now`);
      const { command, title } = pane.pane;
      const named = [command, title.trim() === '' || title === command ? null : title].filter((part) => part !== null).join(' · ');
      const label = `${paneWhere(pane)}${named === '' ? '' : ` (${named})`}`;
      return act({ type: 'end-ask', ending: { key: pane.key, pid: pane.pane.pid, label }, now: scene.now });
    },
    true,
  );
}

/** The answer to the end question: `y` ends the pane seen, if it is still listed; anything else keeps it. */
function endKey(scene: KeyScene, key: KeyPress): KeyOutcome {
  const ending = scene.ui.ending;
  if (ending === null) return finish('nothing to end');
  if (key.name !== 'y') return finish(`cancelled: ${ending.label} keeps running`);
  const pane = paneOf(scene, ending.key);
  if (!pane) return finish(`${ending.label} has closed; nothing was ended`, 'warn');
  const down = hostDown(pane, scene.hosts);
  if (down !== null) return finish(`${down}: ${ending.label} was not ended`, 'warn');
  return { actions: [{ type: 'done', status: { text: `ending ${ending.label}…`, tone: 'info' } }], effects: [{ kind: 'end', pane, pid: ending.pid }] };
}

// Runs what a key asked for (key-dispatch.ts) through the DashboardActions the CLI hands in, and
// turns each result into UI actions: what the status line says once a send, a jump or a switch
// is done or has failed. Nothing here spawns anything; it only calls the actions it is given.

import type { EngineHandle } from '../engine/types.js';
import type { DashboardActions } from './actions.js';
import { paneWhere } from './hosts.js';
import type { KeyEffect, TypeEffect } from './key-dispatch.js';
import { SERVICE_TITLES, type ServicesStore } from './service-state.js';
import type { UiAction } from './state.js';
import { startRequestOf, type StartDraft } from './start-draft.js';

export interface EffectDeps {
  readonly actions: DashboardActions;
  readonly engine: Pick<EngineHandle, 'acknowledge' | 'markSeen'>;
  readonly services: ServicesStore;
  readonly dispatch: (action: UiAction) => void;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function typed(effect: TypeEffect, actions: DashboardActions): Promise<unknown> {
  switch (effect.kind) {
    case 'answer':
      return actions.answer(effect.pane, effect.option, effect.shownHash);
    case 'send':
      return actions.send(effect.pane, effect.items, effect.shownHash);
    case 'reply':
      return actions.reply(effect.pane, effect.text, effect.shownHash);
  }
}

/** Types, then says so; a failure takes back the answered mark, and a reply keeps its text. */
function runTypeEffect(effect: TypeEffect, { actions, dispatch }: EffectDeps): void {
  const { pane, what } = effect;
  typed(effect, actions).then(
    () => dispatch({ type: 'status', status: { text: `sent ${what} to ${paneWhere(pane)}`, tone: 'info' } }),
    (error: unknown) => {
      dispatch({ type: 'unanswered', key: pane.key });
      if (effect.kind !== 'reply') {
        dispatch({ type: 'status', status: { text: errorText(error), tone: 'error' } });
        return;
      }
      // A reply is never lost: when it cannot go out, the draft stays and Enter tries again.
      dispatch({
        type: 'reply-refused',
        key: pane.key,
        draft: effect.text,
        status: { text: `${errorText(error)} (Enter sends, Esc cancels)`, tone: 'warn' },
      });
    },
  );
}

/** Starts the draft's command; the new pane is selected once listed, and a refusal reopens the prompt with what was typed. */
function startPane(draft: StartDraft, { actions, dispatch }: EffectDeps): void {
  actions.start(draft.host, startRequestOf(draft)).then(
    (started) => {
      dispatch({ type: 'await-pane', key: started.key });
      const where = started.worktree ? `worktree ${started.worktree.path} (branch ${started.worktree.branch})` : (started.cwd ?? 'its session folder');
      dispatch({ type: 'status', status: { text: `started ${started.name} as ${started.key} in ${where}`, tone: 'info' } });
    },
    (error: unknown) => dispatch({ type: 'start-open', draft, status: { text: `${errorText(error)} (Enter tries again, Esc cancels)`, tone: 'warn' }, now: null }),
  );
}

/** Starts the effect; what it ends with reaches the UI through `dispatch`. */
export function runKeyEffect(effect: KeyEffect, deps: EffectDeps): void {
  const { actions, dispatch } = deps;
  switch (effect.kind) {
    case 'answer':
    case 'send':
    case 'reply':
      runTypeEffect(effect, deps);
      return;
    case 'jump':
      actions.jumpTo(effect.pane).then(
        (result) => {
          // The person is there now: it has been seen, for every surface and corral process.
          if (result.switched) deps.engine.markSeen(effect.pane.key);
          dispatch({ type: 'done', status: { text: result.message, tone: result.switched ? 'info' : 'warn' } });
        },
        (error: unknown) => dispatch({ type: 'done', status: { text: errorText(error), tone: 'error' } }),
      );
      return;
    case 'snooze':
      deps.engine.acknowledge(effect.key);
      return;
    case 'toggle': {
      const name = effect.service;
      const toggled = name === 'bridge' ? actions.toggleBridge() : actions.toggleAttach();
      toggled.then(
        () => {
          // Say where it is when it comes on (the link to open, when the service gives one).
          const state = deps.services.getSnapshot()[name];
          const where = state.link ?? state.url;
          const text = state.status === 'on' && where ? `${SERVICE_TITLES[name]} on: ${where}` : null;
          dispatch({ type: 'status', status: text === null ? null : { text, tone: 'info' } });
        },
        (error: unknown) =>
          dispatch({ type: 'status', status: { text: `${SERVICE_TITLES[name]}: ${errorText(error)}`, tone: 'error' } }),
      );
      return;
    }
    case 'start':
      startPane(effect.draft, deps);
      return;
    case 'end':
      actions.end(effect.pane, effect.pid).then(
        () => dispatch({ type: 'status', status: { text: `ended ${paneWhere(effect.pane)}`, tone: 'info' } }),
        (error: unknown) => dispatch({ type: 'status', status: { text: errorText(error), tone: 'error' } }),
      );
      return;
    case 'quit':
      actions.quit();
      return;
  }
}

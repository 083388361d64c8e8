// Drives one exchange with a pane: captures the baseline, types the message, then feeds the
// pane's captures (from the shared ticker) to a Conversation until the answer is complete, the
// pane closes or the caller aborts. tmux, time and timers are injected.

import type { Clock } from '../types.js';
import type { SendItem } from '../tmux/keys.js';
import { PaneGoneError, type CaptureBatchResult } from '../tmux/client.js';
import type { BatchCapture } from '../tmux/commands.js';
import { captureLines } from './screen-diff.js';
import { Conversation, type Classifier, type FinishReason, type PaneCapture } from './conversation.js';
import type { CaptureTicker, Timers } from './capture-ticker.js';

export interface ConversationSettings {
  readonly quietMs: number;
  readonly maxDurationMs: number;
  readonly historyLines: number;
  /** Pause between typing the text and pressing Enter (agents can lose an Enter sent at once). */
  readonly enterDelayMs: number;
  /** Longer messages (or any with a newline) go in as a bracketed paste. */
  readonly pasteThreshold: number;
  readonly fence?: boolean;
}

export interface PaneWriter {
  captureBatch(paneIds: readonly string[], options: { history: number; historyByPane?: ReadonlyMap<string, number> }): Promise<CaptureBatchResult>;
  send(paneId: string, items: readonly SendItem[]): Promise<void>;
  paste(paneId: string, text: string): Promise<void>;
}

export interface ConversationDeps {
  readonly tmux: PaneWriter;
  readonly ticker: CaptureTicker;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly settings: ConversationSettings;
  readonly classify?: Classifier;
}

export interface ConversationRequest {
  readonly paneId: string;
  readonly message: string;
  readonly signal?: AbortSignal;
  /** Called once the message is typed and Enter pressed. */
  readonly onTyped?: () => void;
  /** Called with each piece of the answer as it becomes known. */
  readonly onText?: (text: string) => void;
}

export type ConversationOutcome =
  | { readonly status: 'finished'; readonly finishReason: FinishReason; readonly answer: string }
  | { readonly status: 'aborted'; readonly answer: string }
  | { readonly status: 'pane-gone'; readonly answer: string; readonly message: string }
  | { readonly status: 'failed'; readonly answer: string; readonly message: string };

export function toPaneCapture(capture: BatchCapture): PaneCapture {
  return { lines: captureLines(capture.text), cursorRow: capture.cursorRow, height: capture.height };
}

export async function runConversation(deps: ConversationDeps, request: ConversationRequest): Promise<ConversationOutcome> {
  const { tmux, settings } = deps;
  const { paneId, message, signal } = request;
  if (signal?.aborted) return { status: 'aborted', answer: '' };

  const first = await tmux.captureBatch([paneId], { history: settings.historyLines });
  const baseline = first.captures.get(paneId);
  if (!baseline || baseline.dead) throw new PaneGoneError(paneId);
  const conversation = new Conversation(toPaneCapture(baseline), message, deps.clock.now(), settings, deps.classify);

  if (message.includes('\n') || message.length > settings.pasteThreshold) await tmux.paste(paneId, message);
  else await tmux.send(paneId, [{ kind: 'text', text: message }]);
  if (!(await pause(deps.timers, settings.enterDelayMs, signal))) return { status: 'aborted', answer: '' };
  await tmux.send(paneId, [{ kind: 'key', key: 'Enter' }]);
  if (signal?.aborted) return { status: 'aborted', answer: '' };
  request.onTyped?.();

  return await new Promise<ConversationOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: ConversationOutcome) => {
      if (settled) return;
      settled = true;
      stop();
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const say = (text: string) => {
      if (text !== '') request.onText?.(text);
    };
    const onAbort = () => finish({ status: 'aborted', answer: conversation.answer });
    const stop = deps.ticker.watch(paneId, (event) => {
      if (settled) return;
      if (event.kind === 'capture') {
        const step = conversation.observe(toPaneCapture(event.capture), deps.clock.now());
        say(step.text);
        if (step.finish) finish({ status: 'finished', finishReason: step.finish, answer: conversation.answer });
      } else if (event.kind === 'gone') {
        say(conversation.end('stop'));
        finish({ status: 'pane-gone', answer: conversation.answer, message: `pane ${paneId} closed while answering` });
      } else {
        say(conversation.end('stop'));
        finish({ status: 'failed', answer: conversation.answer, message: event.error.message });
      }
    }, () => conversation.historyWanted(settings.historyLines));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits `ms`; resolves false at once when the signal aborts. */
function pause(timers: Timers, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(!signal?.aborted);
    }, ms);
    const onAbort = () => {
      timers.clearTimeout(handle);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

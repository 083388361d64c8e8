// Answers the bridge writes without typing: one it knows already (a side request's, "nothing was
// typed"), streamed whole or as one JSON completion, and a retry's replay of an earlier answer,
// followed live while that answer still streams.

import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-server.js';
import type { ChatRequest } from './request.js';
import type { RecordedAnswer, Replay } from './replays.js';
import { SSE_DONE, completion, contentChunk, finishChunk, roleChunk, sseEvent, usageChunk, usageOf, wholeStream, type CompletionIdentity } from './sse-chunks.js';

/** The answer to a request whose last message is not a new one from the person: never empty. */
export const NOTHING_TYPED = '(nothing was typed: the last message is not a new message from you)';
/** Set on a replayed answer: the completion id of the answer it repeats. */
export const REPLAY_HEADER = 'x-corral-replay-of';

export function streamHeaders(): Record<string, string> {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  };
}

/** An answer corral knows without typing, streamed whole or as one JSON completion. */
export function answerDirectly(res: ServerResponse, chat: ChatRequest, ident: CompletionIdentity, text: string, finishReason: 'stop' | 'length' = 'stop', headers: Record<string, string> = {}): void {
  const usage = usageOf('', text);
  if (chat.stream) {
    res.writeHead(200, { ...streamHeaders(), ...headers });
    res.end(wholeStream(ident, text, finishReason, usage));
  } else {
    sendJson(res, 200, completion(ident, text, finishReason, usage), headers);
  }
}

/** Ends a replay of an answer that did not finish: its fence closed, and a line that says so. */
export function incompleteEnding(recorded: RecordedAnswer): string {
  if (recorded.end === 'finished') return '';
  const fences = recorded.answer.split('\n').filter((line) => /^`{3,}$/.test(line));
  const open = fences.length % 2 === 1 ? `${recorded.answer.endsWith('\n') ? '' : '\n'}${fences.at(-1)}\n` : '';
  const why =
    recorded.end === 'cut'
      ? 'still running when the first answer was cut off; what it printed after that opens the next answer of this pane'
      : 'corral could not follow the pane to the end of this answer';
  return `${open}\n(incomplete: ${why})\n`;
}

/** What a replay ends with: `length` when the answer it repeats did not finish. */
function replayFinish(recorded: RecordedAnswer): 'stop' | 'length' {
  return recorded.end === 'finished' ? recorded.finishReason : 'length';
}

/**
 * A retry: the first request's answer, live while it still streams, marked as a replay. An
 * answer that did not finish is never passed off as whole: it ends with a line that says so and
 * finish_reason `length`.
 */
export async function answerReplay(res: ServerResponse, chat: ChatRequest, ident: CompletionIdentity, replay: Replay): Promise<void> {
  if (replay.kind === 'recorded') {
    const { recorded } = replay;
    answerDirectly(res, chat, ident, recorded.answer + incompleteEnding(recorded), replayFinish(recorded), { [REPLAY_HEADER]: recorded.id });
    return;
  }
  const { live } = replay;
  if (!chat.stream) {
    const recorded = await live.done;
    answerDirectly(res, chat, ident, recorded.answer + incompleteEnding(recorded), replayFinish(recorded), { [REPLAY_HEADER]: live.id });
    return;
  }
  res.writeHead(200, { ...streamHeaders(), [REPLAY_HEADER]: live.id });
  res.write(sseEvent(roleChunk(ident)));
  const write = (text: string) => {
    if (text !== '' && !res.writableEnded && !res.destroyed) res.write(sseEvent(contentChunk(ident, text)));
  };
  write(live.soFar);
  const stop = live.follow(write);
  const gone = new Promise<void>((resolve) => res.once('close', () => resolve()));
  const recorded = await Promise.race([live.done, gone.then(() => null)]);
  stop();
  if (recorded === null || res.writableEnded || res.destroyed) return;
  write(incompleteEnding(recorded));
  res.write(sseEvent(finishChunk(ident, replayFinish(recorded))));
  if (ident.includeUsage) res.write(sseEvent(usageChunk(ident, usageOf('', recorded.answer + incompleteEnding(recorded)))));
  res.end(SSE_DONE);
}

// A cycle's one question to tmux: the listing, and the screens of the panes the capture plan
// chooses from it. On this machine (a round trip costs about a millisecond) the listing comes
// first and the plan chooses from it; for a host far away the captures the previous listing
// chose ride along with this one, one round trip a cycle.

import type { PollCycleOutput } from '../tmux/polling.js';
import type { TmuxClient } from '../tmux/client.js';
import type { PaneInfo } from '../types.js';
import { PROCESS_TABLE_SHELL } from '../prompt/process-work.js';
import { chooseCaptures, type CapturePlan } from './capture-plan.js';
import type { ClockSkew } from './clock-skew.js';
import type { CycleAsk } from './poll-plan.js';
import type { PaneEntry } from './poll-step.js';

export interface ListingRequest {
  readonly entries: ReadonlyMap<string, PaneEntry>;
  readonly plan: CapturePlan;
  readonly skew: ClockSkew;
  /** Wall-clock time the request leaves. */
  readonly requestedAt: number;
  /** What the cycle's plan asks (see poll-plan.ts). */
  readonly ask: CycleAsk;
}

export interface ListingAnswer {
  readonly output: PollCycleOutput;
  /** The panes this cycle chose to capture; null when the client captured every known pane. */
  readonly chosen: ReadonlySet<string> | null;
}

export async function requestListing(tmux: TmuxClient, request: ListingRequest): Promise<ListingAnswer> {
  const { entries, plan, skew, requestedAt, ask } = request;
  // Chosen a cycle ahead, the captures ride along with the listing; else they are chosen from it.
  const pipelined = ask.captures.kind === 'ahead' ? ask.captures.panes : null;
  const recaptureBy = ask.captures.kind === 'from-listing' ? ask.captures.recaptureBy : requestedAt;
  const shell = ask.processTable ? PROCESS_TABLE_SHELL : null;
  const windows = ask.windows;
  // Filled when the client lets the engine choose; otherwise every known pane is captured.
  let chosen: Set<string> | null = pipelined === null ? null : new Set(pipelined);
  const select = (listed: readonly PaneInfo[]): string[] => {
    const picked = chooseCaptures(
      listed.map((pane) => skew.toLocal(pane)),
      entries,
      plan,
      requestedAt,
      recaptureBy,
    );
    chosen ??= new Set();
    for (const id of picked) chosen.add(id);
    return picked;
  };
  const output = await tmux.panes.pollCycle([...entries.keys()], select, {
    clock: pipelined !== null,
    ...(pipelined === null ? {} : { pipelined }),
    ...(windows === null ? {} : { windows }),
    ...(pipelined === null || shell === null ? {} : { shell }),
  });
  return { output, chosen };
}

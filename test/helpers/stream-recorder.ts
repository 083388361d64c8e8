// A StreamViewer that keeps everything PaneStreams hands it, for assertions.

import type { LiveChunk, PaneEnd, Replay, StreamViewer } from '../../src/engine/pane-stream/pane-streams.js';

export class Recorder implements StreamViewer {
  chunks: LiveChunk[] = [];
  resets: Replay[] = [];
  ended: PaneEnd | null = null;
  constructor(readonly text: boolean) {}
  onOutput(chunk: LiveChunk) {
    this.chunks.push(chunk);
  }
  onReset(replay: Replay) {
    this.resets.push(replay);
  }
  onEnd(end: PaneEnd) {
    this.ended = end;
  }
  get liveBytes(): Buffer {
    return Buffer.concat(this.chunks.map((c) => c.bytes));
  }
}

// A pane's recent output as bytes, addressed by offsets that only ever grow: byte N of the
// stream keeps offset N for good, and the oldest bytes are dropped once the size limit is hit.

export class RingBuffer {
  private chunks: Buffer[] = [];
  private head = 0;
  private start: number;
  private size = 0;

  constructor(
    readonly capacity: number,
    startOffset = 0,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('ring capacity must be a positive whole number');
    this.start = startOffset;
  }

  /** Offset of the oldest byte still held. */
  get oldestOffset(): number {
    return this.start;
  }

  /** Offset just after the newest byte (the total written, counting from the first offset). */
  get endOffset(): number {
    return this.start + this.size;
  }

  get byteLength(): number {
    return this.size;
  }

  /** Appends bytes and returns the new end offset. */
  append(bytes: Buffer): number {
    if (bytes.length === 0) return this.endOffset;
    this.chunks.push(bytes);
    this.size += bytes.length;
    while (this.size > this.capacity) {
      const first = this.chunks[this.head] as Buffer;
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.head += 1;
        this.size -= first.length;
        this.start += first.length;
      } else {
        this.chunks[this.head] = first.subarray(excess);
        this.size -= excess;
        this.start += excess;
      }
    }
    if (this.head > 64 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
    return this.endOffset;
  }

  /** Whether every byte of [from, to) is still held. */
  holds(from: number, to: number = this.endOffset): boolean {
    return Number.isInteger(from) && Number.isInteger(to) && from >= this.start && from <= to && to <= this.endOffset;
  }

  /** The bytes of the half-open range [from, to); throws when the range is not (or no longer) held. */
  slice(from: number, to: number = this.endOffset): Buffer {
    if (!this.holds(from, to)) {
      throw new RangeError(`range [${from}, ${to}) is outside the ring [${this.start}, ${this.endOffset})`);
    }
    const parts: Buffer[] = [];
    let offset = this.start;
    for (let i = this.head; i < this.chunks.length && offset < to; i++) {
      const chunk = this.chunks[i] as Buffer;
      const chunkEnd = offset + chunk.length;
      if (chunkEnd > from) parts.push(chunk.subarray(Math.max(0, from - offset), Math.min(chunk.length, to - offset)));
      offset = chunkEnd;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }

  /**
   * Forgets everything and continues at `offset` (>= the current end). Used when the stream had a
   * gap: offsets before the gap then fall outside the ring, so nobody resumes across it.
   */
  restartAt(offset: number): void {
    if (offset < this.endOffset) throw new RangeError('a ring never moves its offsets backwards');
    this.chunks = [];
    this.head = 0;
    this.size = 0;
    this.start = offset;
  }
}

// Text for the JSON protocol from a byte stream: a character split across two chunks is held back
// until its last byte arrives, so no text frame ever carries half a character.

/** How many bytes at the end of `bytes` start a UTF-8 character that is not complete yet. */
export function incompleteUtf8Tail(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const byte = bytes[n - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte < 0xc2 ? 1 : byte < 0xe0 ? 2 : byte < 0xf0 ? 3 : byte <= 0xf4 ? 4 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/** Number of continuation bytes at the start (a resume offset that landed inside a character). */
export function leadingContinuationBytes(bytes: Uint8Array): number {
  let i = 0;
  while (i < Math.min(3, bytes.length) && ((bytes[i] as number) & 0xc0) === 0x80) i++;
  return i;
}

/** Decodes one pane's byte stream chunk by chunk; `boundary` is the offset the text reaches. */
export class Utf8Stream {
  private carry: Buffer = Buffer.alloc(0);

  constructor(private end: number) {}

  /** Offset just after the last byte turned into text. */
  get boundary(): number {
    return this.end - this.carry.length;
  }

  /** Feeds the bytes that end at `endOffset`; returns the text of every complete character. */
  push(bytes: Buffer, endOffset: number): string {
    const data = this.carry.length === 0 ? bytes : Buffer.concat([this.carry, bytes]);
    const tail = incompleteUtf8Tail(data);
    this.carry = tail === 0 ? Buffer.alloc(0) : Buffer.from(data.subarray(data.length - tail));
    this.end = endOffset;
    return data.toString('utf8', 0, data.length - tail);
  }

  /** Drops a held partial character (after a gap in the stream). */
  restartAt(offset: number): void {
    this.carry = Buffer.alloc(0);
    this.end = offset;
  }
}

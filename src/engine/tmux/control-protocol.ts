// tmux control mode (`tmux -C`) as pure functions: line framing, notification parsing, reply blocks
// (`%begin`/`%end`/`%error` with matching numbers), the octal unescaping of `%output` data, and the
// quoting of the command lines corral writes. Nothing here starts a process.

/**
 * The longest line corral reads from a control connection: a screen row, a listing line and a
 * chunk of pane output are all far shorter. A longer one means a broken or hostile peer (a host
 * writing without newlines): the reader throws ControlLimitError and the connection is dropped.
 */
export const MAX_CONTROL_LINE = 4 * 1024 * 1024;
/** The largest reply (all lines of one command's answer): listings of thousands of panes fit. */
export const MAX_CONTROL_REPLY = 16 * 1024 * 1024;

/** A peer sent more than a reader keeps: the connection must be dropped. */
export class ControlLimitError extends Error {
  constructor(what: 'line' | 'reply', limit: number) {
    super(`sent a control-mode ${what} longer than ${Math.round(limit / (1024 * 1024))} MiB; corral dropped the connection`);
    this.name = 'ControlLimitError';
  }
}

/** Splits a byte stream into lines (without the trailing "\n"); bytes stay bytes. */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLine = MAX_CONTROL_LINE) {}

  /** Feeds a chunk and returns the complete lines it finished; throws ControlLimitError past maxLine. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      if (this.pending.length > 0) {
        this.pending.push(piece);
        lines.push(Buffer.concat(this.pending));
        this.pending = [];
        this.pendingBytes = 0;
      } else {
        lines.push(piece);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxLine) {
        this.pending = [];
        this.pendingBytes = 0;
        throw new ControlLimitError('line', this.maxLine);
      }
      this.pending.push(chunk.subarray(start));
    }
    return lines;
  }
}

/**
 * `%output` data: tmux writes bytes below 0x20 and the backslash as `\ooo`; every other byte
 * (UTF-8 included) arrives as itself. Returns the original bytes.
 */
export function unescapeOutput(data: Buffer): Buffer {
  if (data.indexOf(0x5c) === -1) return Buffer.from(data);
  const out = Buffer.allocUnsafe(data.length);
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    const byte = data[i] as number;
    if (byte === 0x5c && i + 3 < data.length && isOctal(data[i + 1]) && isOctal(data[i + 2]) && isOctal(data[i + 3])) {
      out[n++] =
        (((data[i + 1] as number) - 0x30) << 6) |
        (((data[i + 2] as number) - 0x30) << 3) |
        ((data[i + 3] as number) - 0x30);
      i += 3;
    } else {
      out[n++] = byte;
    }
  }
  return out.subarray(0, n);
}

function isOctal(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x37;
}

/** Everything tmux can say on a control connection, one line at a time. */
export type ControlLine =
  | { readonly kind: 'begin'; readonly time: number; readonly number: number; readonly flags: number }
  | {
      readonly kind: 'end';
      readonly time: number;
      readonly number: number;
      readonly flags: number;
      readonly error: boolean;
    }
  | { readonly kind: 'output'; readonly paneId: string; readonly data: Buffer; readonly ageMs: number | null }
  | { readonly kind: 'pause'; readonly paneId: string }
  | { readonly kind: 'continue'; readonly paneId: string }
  | { readonly kind: 'exit'; readonly reason: string }
  | { readonly kind: 'session-changed'; readonly sessionId: string; readonly name: string }
  | { readonly kind: 'window-pane-changed'; readonly windowId: string; readonly paneId: string }
  | { readonly kind: 'notification'; readonly name: string; readonly args: string }
  | { readonly kind: 'text'; readonly text: string };

type GuardLine = Extract<ControlLine, { kind: 'begin' | 'end' }>;

/**
 * A `%begin`, `%end` or `%error` line (`%end TIME NUMBER FLAGS`, three decimal numbers), read from
 * the bytes: every reply has two of them. Null for any other line.
 */
function parseGuard(line: Buffer): GuardLine | null {
  let kind: 'begin' | 'end' | 'error';
  let at: number;
  if (startsWith(line, '%begin ')) [kind, at] = ['begin', 7];
  else if (startsWith(line, '%end ')) [kind, at] = ['end', 5];
  else if (startsWith(line, '%error ')) [kind, at] = ['error', 7];
  else return null;
  const numbers = [0, 0, 0];
  for (let field = 0; field < 3; field++) {
    const start = at;
    let value = 0;
    while (at < line.length && line[at]! >= 0x30 && line[at]! <= 0x39) value = value * 10 + (line[at++]! - 0x30);
    if (at === start) return null;
    numbers[field] = value;
    if (field < 2) {
      if (line[at] !== 0x20) return null;
      at += 1;
    }
  }
  if (at !== line.length) return null;
  const [time, number, flags] = numbers as [number, number, number];
  return kind === 'begin' ? { kind, time, number, flags } : { kind: 'end', time, number, flags, error: kind === 'error' };
}

/** Parses one line as tmux sends it outside or inside a reply block. */
export function parseControlLine(line: Buffer): ControlLine {
  if (line[0] !== 0x25 /* % */) return { kind: 'text', text: line.toString('utf8') };
  // The data of %output must stay bytes: find the fields by position, not by decoding.
  if (startsWith(line, '%output ')) {
    const space = line.indexOf(0x20, 8);
    if (space !== -1) {
      return {
        kind: 'output',
        paneId: line.toString('latin1', 8, space),
        data: unescapeOutput(line.subarray(space + 1)),
        ageMs: null,
      };
    }
    return { kind: 'output', paneId: line.toString('latin1', 8), data: Buffer.alloc(0), ageMs: null };
  }
  if (startsWith(line, '%extended-output ')) {
    // %extended-output %PANE AGE ... : DATA  (fields before the colon may grow in later versions)
    const colon = line.indexOf(' : ');
    const head = line.toString('latin1', 17, colon === -1 ? line.length : colon).split(' ');
    const data = colon === -1 ? Buffer.alloc(0) : unescapeOutput(line.subarray(colon + 3));
    const age = Number(head[1]);
    return { kind: 'output', paneId: head[0] ?? '', data, ageMs: Number.isFinite(age) ? age : null };
  }
  const guard = parseGuard(line);
  if (guard) return guard;
  const text = line.toString('utf8');
  const space = text.indexOf(' ');
  const name = space === -1 ? text.slice(1) : text.slice(1, space);
  const args = space === -1 ? '' : text.slice(space + 1);
  switch (name) {
    case 'pause':
      return { kind: 'pause', paneId: args.trim() };
    case 'continue':
      return { kind: 'continue', paneId: args.trim() };
    case 'exit':
      return { kind: 'exit', reason: args };
    case 'session-changed': {
      const [sessionId = '', ...rest] = args.split(' ');
      return { kind: 'session-changed', sessionId, name: rest.join(' ') };
    }
    case 'window-pane-changed': {
      const [windowId = '', paneId = ''] = args.split(' ');
      return { kind: 'window-pane-changed', windowId, paneId };
    }
    default:
      return { kind: 'notification', name, args };
  }
}

function startsWith(line: Buffer, prefix: string): boolean {
  if (line.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (line[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** A command's answer: the text between `%begin` and `%end` (or `%error`). */
export interface ControlReply {
  readonly number: number;
  readonly flags: number;
  readonly ok: boolean;
  /** The reply's lines, each with its "\n" (empty when the reply has no line). */
  readonly text: string;
}

/** A reply's lines, without their line ends. */
export function replyLines(reply: ControlReply): string[] {
  return reply.text === '' ? [] : reply.text.slice(0, -1).split('\n');
}

export type ControlEvent =
  { readonly kind: 'reply'; readonly reply: ControlReply } | Exclude<ControlLine, { kind: 'begin' | 'end' | 'text' }>;

const LF = Buffer.from('\n');
const NEWLINE_PERCENT = Buffer.from('\n%');

/**
 * Turns bytes into events: reply blocks are gathered into one `reply` event (notifications never
 * appear inside a block); everything else passes through. Text outside a block is ignored.
 *
 * Inside a block only a line that starts with `%` can end it, so the parser jumps from one such
 * line to the next and keeps the text between as bytes: a reply of many lines is decoded once,
 * in one piece, without a string or an array per line.
 */
export class ControlParser {
  /** The start of an unfinished line, carried over to the next chunks, and its length. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private block: { time: number; number: number; flags: number; parts: Buffer[]; bytes: number } | null = null;

  constructor(private readonly limits: { readonly maxLine: number; readonly maxReply: number } = { maxLine: MAX_CONTROL_LINE, maxReply: MAX_CONTROL_REPLY }) {}

  /** Feeds a chunk; throws ControlLimitError when a line or a reply outgrows its limit (drop the connection then). */
  push(chunk: Buffer, emit: (event: ControlEvent) => void): void {
    if (this.pendingBytes > 0 && chunk.indexOf(0x0a) === -1) {
      // Still the same unfinished line: its parts are kept and joined once, when its end arrives
      // (joining on every chunk would copy a long line over and over).
      this.pendingBytes += chunk.length;
      if (this.pendingBytes > this.limits.maxLine) this.overflow();
      this.pending.push(Buffer.from(chunk));
      return;
    }
    const data = this.pendingBytes > 0 ? Buffer.concat([...this.pending, chunk]) : chunk;
    let start = 0;
    while (start < data.length) {
      const block = this.block;
      if (block !== null && data[start] !== 0x25) {
        // Reply text up to the next line that starts with '%', or to the last whole line.
        const marked = data.indexOf(NEWLINE_PERCENT, start);
        const end = marked === -1 ? data.lastIndexOf(0x0a) + 1 : marked + 1;
        if (end <= start) break;
        this.addToBlock(block, data.subarray(start, end));
        start = end;
        continue;
      }
      const nl = data.indexOf(0x0a, start);
      if (nl === -1) break;
      this.line(data.subarray(start, nl), emit);
      start = nl + 1;
    }
    if (data.length - start > this.limits.maxLine) this.overflow();
    // A copy: the rest may outlive this chunk by many reads.
    this.pending = start < data.length ? [Buffer.from(data.subarray(start))] : [];
    this.pendingBytes = data.length - start;
  }

  private overflow(): never {
    this.pending = [];
    this.pendingBytes = 0;
    this.block = null;
    throw new ControlLimitError('line', this.limits.maxLine);
  }

  private addToBlock(block: NonNullable<ControlParser['block']>, part: Buffer): void {
    block.bytes += part.length;
    if (block.bytes > this.limits.maxReply) {
      this.block = null;
      throw new ControlLimitError('reply', this.limits.maxReply);
    }
    block.parts.push(part);
  }

  line(raw: Buffer, emit: (event: ControlEvent) => void): void {
    if (this.block !== null) {
      // Inside a block every line is reply text, unless it is the matching guard.
      if (raw[0] === 0x25) {
        const parsed = parseControlLine(raw);
        // The guard tmux ends a reply with repeats its %begin's time, number and flags; a screen
        // line that only looks like one ends nothing.
        if (parsed.kind === 'end' && parsed.number === this.block.number && parsed.time === this.block.time && parsed.flags === this.block.flags) {
          const { number, flags, parts } = this.block;
          this.block = null;
          const text = parts.length === 0 ? '' : parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8');
          emit({ kind: 'reply', reply: { number, flags, ok: !parsed.error, text } });
          return;
        }
      }
      this.addToBlock(this.block, raw);
      this.addToBlock(this.block, LF);
      return;
    }
    const parsed = parseControlLine(raw);
    switch (parsed.kind) {
      case 'begin':
        this.block = { time: parsed.time, number: parsed.number, flags: parsed.flags, parts: [], bytes: 0 };
        return;
      case 'end':
      case 'text':
        return;
      default:
        emit(parsed);
    }
  }
}

// tmux's parser gives '%', ':', '#', '~', quotes and more a meaning; only plain words go bare.
const BARE_WORD = /^[A-Za-z0-9_.,=+/-]+$/;

/** Quotes one argument for tmux's command parser (control mode reads command lines, not argv). */
export function quoteControlArg(value: string): string {
  if (/[\n\r]/.test(value)) throw new Error('a control-mode command argument cannot contain a line break');
  if (value !== '' && BARE_WORD.test(value)) return value;
  if (!value.includes("'")) return `'${value}'`;
  return `"${value.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
}

/** One command line: commands joined with ` ; ` (they then run back to back, nothing in between). */
export function formatControlLine(commands: readonly (readonly string[])[]): string {
  return commands.map((command) => command.map(quoteControlArg).join(' ')).join(' ; ');
}

// Removes the echo of the typed message from the start of the answer: the shell's prompt line
// with the command, or an agent's "> message" (wrapped over several rows, maybe inside a box).
// Only leading lines are candidates, each message line is matched once, and the first line
// that is not part of the echo ends the search: output that mentions the message stays.

export interface EchoState {
  /** Message lines still expected, the first one possibly partly seen. */
  readonly pending: readonly string[];
  readonly done: boolean;
}

export function createEchoState(message: string): EchoState {
  const pending = message
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return { pending, done: pending.length === 0 };
}

// Box edges and prompt marks that decorate an echoed line.
const DECORATION = /^[\s│┃║|>›❯»$#%*●⏺]+|[\s│┃║|]+$/g;

export function removeEcho(state: EchoState, lines: readonly string[]): { state: EchoState; lines: string[] } {
  if (state.done) return { state, lines: [...lines] };
  let pending = [...state.pending];
  let index = 0;
  for (; index < lines.length && pending.length > 0; index++) {
    const line = (lines[index] ?? '').trim();
    if (line === '') continue;
    const want = pending[0] as string;
    // Compared without spaces: readline puts a space where a wide character did not fit.
    if (line.includes(want) || squeeze(line).includes(squeeze(want))) {
      pending = pending.slice(1);
      continue;
    }
    const bare = line.replace(DECORATION, '');
    if (bare !== '' && want.startsWith(bare)) {
      // A wrapped row: the rest of the message line comes on the next rows.
      const rest = want.slice(bare.length).trim();
      pending = rest === '' ? pending.slice(1) : [rest, ...pending.slice(1)];
      continue;
    }
    return { state: { pending, done: true }, lines: lines.slice(index) };
  }
  // Blank lines right after the echo are part of it.
  while (pending.length === 0 && index < lines.length && (lines[index] ?? '').trim() === '') index += 1;
  const done = pending.length === 0 && index < lines.length;
  return { state: { pending, done }, lines: lines.slice(index) };
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, '');
}

// The dashboard's text fields (a reply, the filter, the start prompt): the line editor as a pure
// function, the key decoder, and an oracle through Ink itself: generated key sequences, sent in
// reads of random sizes, leave the same text and cursor as the same keys sent one read each, and
// both the text a model of the keys gives.

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { createUiStore, type UiState, type UiStore } from '../../src/ui/state.js';
import { createServicesStore } from '../../src/ui/service-state.js';
import { decodeKeys } from '../../src/ui/key-decoder.js';
import { editLine, emptyLine, type LineEdit, type LineState } from '../../src/ui/line-editor.js';
import { fakeActions, fakeEngine, manualClock, paneView } from '../helpers/fake-engine.js';
import { SeededRandom, testSeeds } from '../helpers/seeded-random.js';

afterEach(() => cleanup());

describe('editLine', () => {
  const at = (text: string, cursor: number): LineState => ({ text, cursor });
  const run = (line: LineState, ...edits: LineEdit['kind'][]) =>
    edits.reduce((l, kind) => editLine(l, kind === 'insert' ? { kind, text: 'X' } : ({ kind } as LineEdit)), line);

  it('inserts and deletes at the cursor, counting code points', () => {
    expect(editLine(at('héllo', 2), { kind: 'insert', text: '😀' })).toEqual(at('hé😀llo', 3));
    expect(run(at('a😀b', 2), 'backspace')).toEqual(at('ab', 1));
    expect(run(at('a😀b', 1), 'delete')).toEqual(at('ab', 1));
    expect(run(at('ab', 2), 'delete')).toEqual(at('ab', 2));
    expect(run(at('ab', 0), 'backspace')).toEqual(at('ab', 0));
  });

  it('moves: left, right, home and end stop at the ends', () => {
    expect(run(at('abc', 0), 'left')).toEqual(at('abc', 0));
    expect(run(at('abc', 3), 'right')).toEqual(at('abc', 3));
    expect(run(at('abc', 3), 'left', 'left', 'insert')).toEqual(at('aXbc', 2));
    expect(run(at('abc', 1), 'home', 'insert')).toEqual(at('Xabc', 1));
    expect(run(at('abc', 1), 'end', 'insert')).toEqual(at('abcX', 4));
  });

  it('kills before, after, the word before the cursor, and all', () => {
    expect(run(at('git commit -m', 7), 'kill-before')).toEqual(at('mit -m', 0));
    expect(run(at('git commit -m', 7), 'kill-after')).toEqual(at('git com', 7));
    expect(run(at('git commit  ', 12), 'kill-word')).toEqual(at('git ', 4));
    expect(run(at('git commit', 6), 'kill-word')).toEqual(at('git mmit', 4));
    expect(run(at('abc', 1), 'clear')).toEqual(emptyLine);
  });

  it('keeps a pasted line one line, without control characters', () => {
    expect(editLine(at('ab', 1), { kind: 'insert', text: 'x\r\ny\u0007\u001b[2Jz' })).toEqual(at('ax y[2Jzb', 8));
  });
});

describe('decodeKeys', () => {
  const names = (raw: string) => decodeKeys(raw).map((k) => k.name);

  it('splits what one read holds into keys, whatever is batched', () => {
    expect(names('\u007f\u007f')).toEqual(['backspace', 'backspace']);
    expect(names('hello\u007f\u0001x\u001b[3~\u001b[D\u001b[C\u001bOH\u001b[4~\r')).toEqual([
      'hello',
      'backspace',
      'ctrl+a',
      'x',
      'delete',
      'left',
      'right',
      'home',
      'end',
      'enter',
    ]);
    expect(names('\u001b[1;5D\u001b')).toEqual(['left', 'escape']);
    expect(decodeKeys('\u001bq')).toEqual([{ name: 'q', input: 'q', ctrl: false, meta: true }]);
    expect(names(' ')).toEqual(['space']);
  });
});

// The keys a person edits a line with, as a terminal sends them, and the edit each one means.
type GenKey = { readonly bytes: string; readonly edit: LineEdit | 'tab' };

const TEXT_POOL = [
  'a',
  'b',
  'Z',
  '7',
  ' ',
  '/',
  '-',
  'é',
  '你',
  '😀',
  'e\u0301',
  '$HOME',
  '#{pane_id}',
  '\\',
  "'",
  '"',
  ';',
];
const EDIT_KEYS: readonly GenKey[] = [
  { bytes: '\u007f', edit: { kind: 'backspace' } },
  { bytes: '\b', edit: { kind: 'backspace' } },
  { bytes: '\u001b[3~', edit: { kind: 'delete' } },
  { bytes: '\u0004', edit: { kind: 'delete' } },
  { bytes: '\u001b[D', edit: { kind: 'left' } },
  { bytes: '\u0002', edit: { kind: 'left' } },
  { bytes: '\u001b[C', edit: { kind: 'right' } },
  { bytes: '\u0006', edit: { kind: 'right' } },
  { bytes: '\u001b[H', edit: { kind: 'home' } },
  { bytes: '\u001b[1~', edit: { kind: 'home' } },
  { bytes: '\u001bOH', edit: { kind: 'home' } },
  { bytes: '\u0001', edit: { kind: 'home' } },
  { bytes: '\u001b[F', edit: { kind: 'end' } },
  { bytes: '\u001b[4~', edit: { kind: 'end' } },
  { bytes: '\u0005', edit: { kind: 'end' } },
  { bytes: '\u0015', edit: { kind: 'kill-before' } },
  { bytes: '\u000b', edit: { kind: 'kill-after' } },
  { bytes: '\u0017', edit: { kind: 'kill-word' } },
];

function generateKeys(rng: SeededRandom, field: Field): GenKey[] {
  const keys: GenKey[] = [];
  const count = rng.int(1, 40);
  for (let i = 0; i < count; i++) {
    const roll = rng.next();
    if (roll < 0.35) {
      const text = rng.pick(TEXT_POOL);
      keys.push({ bytes: text, edit: { kind: 'insert', text } });
    } else if (roll < 0.45) {
      // A paste: several characters in one key.
      const text = Array.from({ length: rng.int(2, 12) }, () => rng.pick(TEXT_POOL)).join('');
      keys.push({ bytes: text, edit: { kind: 'insert', text } });
    } else if (field === 'start' && roll < 0.5) {
      keys.push({ bytes: '\t', edit: 'tab' });
    } else {
      // Backspace more often than the rest: holding it is what broke.
      keys.push(rng.chance(0.3) ? (EDIT_KEYS[0] as GenKey) : rng.pick(EDIT_KEYS));
    }
  }
  return keys;
}

type Field = 'reply' | 'filter' | 'start';
const OPEN: Record<Field, string> = { reply: 'r', filter: '/', start: 'c' };

/** What the field holds: its text and the cursor, and for the start prompt both fields. */
function fieldOf(ui: UiState, field: Field): string {
  if (field === 'reply') return JSON.stringify([ui.mode, ui.draft, ui.cursor]);
  if (field === 'filter') return JSON.stringify([ui.mode, ui.filter, ui.cursor]);
  return JSON.stringify([ui.mode, ui.start?.command, ui.start?.branch, ui.start?.field, ui.cursor]);
}

/** The model: the edits applied one after another, as the line editor's contract says. */
function modelOf(keys: readonly GenKey[], field: Field): string {
  let lines: [LineState, LineState] = [emptyLine, emptyLine];
  let which = 0;
  for (const key of keys) {
    if (key.edit === 'tab') {
      which = 1 - which;
      const text = lines[which]?.text ?? '';
      lines[which] = { text, cursor: [...text].length };
      continue;
    }
    lines[which] = editLine(lines[which] as LineState, key.edit);
  }
  const [command, branch] = lines;
  const cursor = lines[which]?.cursor;
  if (field === 'reply') return JSON.stringify(['reply', command.text, cursor]);
  if (field === 'filter') return JSON.stringify(['filter', command.text, cursor]);
  lines = [command, branch];
  return JSON.stringify(['start', command.text, branch.text, which === 0 ? 'command' : 'branch', cursor]);
}

/** A dashboard on one quiet shell pane, its UI store in hand. */
function mount(): { store: UiStore; write: (s: string) => void } {
  // Quiet long enough that no selection moves: the first key acts at once.
  const engine = fakeEngine([paneView({ quietSince: 1_000, pane: { command: 'bash', cwd: '/tmp' } })]);
  const store = createUiStore();
  const { actions } = fakeActions();
  const r = render(
    <App
      engine={engine}
      actions={actions}
      services={createServicesStore()}
      clock={manualClock(100_000)}
      tickMs={1_000_000}
      activeWindowMs={5_000}
      size={{ columns: 100, rows: 20 }}
      uiStore={store}
    />,
  );
  return { store, write: (s) => r.stdin.write(s) };
}

/** Back to the plain list with empty fields, as Esc leaves it (the next sequence starts afresh). */
function reset(store: UiStore): void {
  store.dispatch({ type: 'done', status: null });
  store.dispatch({ type: 'clear-filter', now: 100_000 });
}

/** Sends the keys in reads of random sizes (`chunked`) or one key per read. */
function send(write: (s: string) => void, keys: readonly GenKey[], rng: SeededRandom | null): void {
  let i = 0;
  while (i < keys.length) {
    const n = rng === null ? 1 : rng.int(1, Math.min(keys.length - i, rng.chance(0.3) ? keys.length : 6));
    write(
      keys
        .slice(i, i + n)
        .map((k) => k.bytes)
        .join(''),
    );
    i += n;
  }
}

describe('every text field, whatever the batching of its keys', () => {
  const SEQUENCES = 120;
  for (const seed of testSeeds(41_001)) {
    it(`leaves the same text and cursor as one key per read, and as the model (seed ${seed}, ${SEQUENCES} sequences per field)`, () => {
      const rng = new SeededRandom(seed);
      let tried = 0;
      for (const field of ['reply', 'filter', 'start'] as const) {
        const one = mount();
        const batched = mount();
        for (let n = 0; n < SEQUENCES; n++) {
          const keys = generateKeys(rng, field);
          for (const d of [one, batched]) reset(d.store);
          one.write(OPEN[field]);
          send(one.write, keys, null);
          // The key that opens the field may come in the same read as the keys after it.
          const chunkRng = new SeededRandom(rng.int(1, 0x7fff_ffff));
          const first = keys[0];
          if (first && typeof first.edit !== 'string' && first.edit.kind === 'insert' && chunkRng.chance(0.5)) {
            batched.write(OPEN[field] + first.bytes);
            send(batched.write, keys.slice(1), chunkRng);
          } else {
            batched.write(OPEN[field]);
            send(batched.write, keys, chunkRng);
          }
          const where = `seed ${seed}, ${field} #${n}: ${JSON.stringify(keys.map((k) => k.bytes))}`;
          expect(fieldOf(batched.store.getState(), field), where).toBe(fieldOf(one.store.getState(), field));
          expect(fieldOf(one.store.getState(), field), where).toBe(modelOf(keys, field));
          tried++;
        }
      }
      expect(tried).toBe(3 * SEQUENCES);
    });
  }
});

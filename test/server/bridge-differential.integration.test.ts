// Differential test of the chat bridge's answers: generated output of every shape (output-shapes.ts)
// is printed by `cat` in real bash panes on a private tmux server and asked for over HTTP with the
// official openai client; each answer must be what a reference terminal shows when it renders the
// pane's own raw bytes (`pipe-pane -O`) for that command (reference-terminal.ts). Many cases go in
// one command, between marker lines, so thousands of cases take a few dozen requests per pane.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { TOKEN, startBridge, type BridgeHarness } from '../helpers/bridge-server.js';
import { seededRandom, testSeeds, type Random } from '../helpers/seeded-random.js';
import { LONE_SHAPES, SHAPES, ShapeGenerator, type OutputCase, type Shape } from '../helpers/output-shapes.js';
import { COMMAND_STARTS, PROMPT_STARTS, renderCommands } from '../helpers/reference-terminal.js';
import { waitUntil } from '../helpers/wait-until.js';
import { NO_OUTPUT } from '../../src/engine/conversation/conversation.js';
import { isProgressLine } from '../../src/engine/conversation/progress-filter.js';

const PANES = [
  { cols: 100, rows: 30, stream: true },
  { cols: 100, rows: 30, stream: false },
  { cols: 61, rows: 20, stream: true },
  { cols: 80, rows: 24, stream: false },
];
// Long batches for the number of cases; short ones (one or two cases) for more commands whose
// last output meets the prompt (the no-final-newline shapes are about that moment).
const BATCHES_PER_PANE = 20;
const casesInBatch = (batch: number, random: Random) => (batch % 2 === 0 ? 60 : 1 + random.int(2));
// After each short batch, a command of one case that writes over the screen it found (LONE_SHAPES),
// drawn from a random stream of its own so that the other batches stay what each seed always gave;
// then a `clear`, so that the batches after it start on a clean screen as they always did.
const loneAfter = (batch: number) => batch % 2 === 1;
const CLEAR = { command: 'clear', cases: [] as OutputCase[] };

let h: BridgeHarness;
let client: OpenAI;
const dir = mkdtempSync(join(tmpdir(), 'corral-diff-'));

beforeAll(async () => {
  // A short quiet keeps a few hundred answers quick; what is compared does not depend on it.
  h = await startBridge({ bridgeQuietMs: '200', bridgePollMs: '40', bridgeLongQuietMs: '5000' });
  client = new OpenAI({ baseURL: h.baseURL, apiKey: TOKEN, maxRetries: 0, timeout: 60_000 });
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

let shellsMade = 0;

/** A bash pane whose prompt and command start are marked with the shell-integration sequences. */
async function markedShell(index: number, cols: number, rows: number): Promise<{ pane: string; log: string }> {
  const ps0 = COMMAND_STARTS.replace('\x1b', '\\e').replace('\x07', '\\a');
  const ps1 = `\\[${PROMPT_STARTS.replace('\x1b', '\\e').replace('\x07', '\\a')}\\]$ `;
  // A session of its own: a window in an existing session would take that session's size.
  const pane = await h.tmux.spawn(`export PS0=$'${ps0}' PS1=$'${ps1}'; exec bash --norc --noprofile`, { width: cols, height: rows, session: `diff-${index}` });
  expect((await h.tmux.tmux('display', '-p', '-t', pane, '#{pane_width}x#{pane_height}')).trim()).toBe(`${cols}x${rows}`);
  await h.tmux.waitForScreen(pane, (screen) => /\$\s*$/.test(screen.trimEnd()), 10_000);
  // One log per shell: a second seed's shells must not append to the first one's logs.
  shellsMade += 1;
  const log = join(dir, `pane-${index}-${shellsMade}.log`);
  await h.tmux.tmux('pipe-pane', '-O', '-t', pane, `cat >> ${log}`);
  await h.engine.pollNow();
  return { pane, log };
}

async function ask(pane: string, content: string, stream: boolean): Promise<string> {
  if (!stream) {
    const answer = await client.chat.completions.create({ model: pane, messages: [{ role: 'user', content }] });
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    return answer.choices[0]?.message.content ?? '';
  }
  const chunks = await client.chat.completions.create({ model: pane, stream: true, messages: [{ role: 'user', content }] });
  let text = '';
  let finish: string | null = null;
  for await (const chunk of chunks) {
    text += chunk.choices[0]?.delta.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  expect(finish).toBe('stop');
  return text;
}

/** The answer's lines inside its fence ((no output): none). */
function answerLines(text: string): string[] {
  if (text === `${NO_OUTPUT}\n`) return [];
  const lines = text.split('\n');
  const fence = lines[0] ?? '';
  expect(fence).toMatch(/^`{3,}$/);
  expect(lines.at(-1)).toBe('');
  expect(lines.at(-2)).toBe(fence);
  return lines.slice(1, -2);
}

function trimBlankEdges(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start += 1;
  while (end > start && lines[end - 1]!.trim() === '') end -= 1;
  return lines.slice(start, end);
}

const MARKER = /^@@(\d+)@@$/;

/** Lines per case: what comes before each marker line, the last case after the last marker. */
function perCase(lines: readonly string[], count: number): (string[] | undefined)[] {
  const cases: (string[] | undefined)[] = Array.from({ length: count }, () => undefined);
  let current: string[] = [];
  let index = 0;
  for (const line of lines) {
    const marker = MARKER.exec(line);
    if (marker && Number(marker[1]) === index) {
      cases[index] = current;
      current = [];
      index += 1;
    } else current.push(line);
  }
  if (index === count - 1) cases[index] = current;
  return cases;
}

interface Tally {
  cases: number;
  passed: number;
  /** Lone shapes: answers that keep every line the command wrote, but not the terminal's old text beside it (see printedKept). */
  printedOnly: number;
  failures: string[];
}

/**
 * What an answer to output that writes over the old screen without a clear must keep, where it may
 * still differ from the terminal: the old text the terminal leaves after each written row (which
 * the answer may show otherwise) and the prompt's row at its end (`$ Ah`). Every line the command
 * wrote starts a line of the answer, in order: nothing it printed is lost.
 */
function printedKept(bytes: Buffer, got: string[] | undefined): boolean {
  if (got === undefined) return false;
  // eslint-disable-next-line no-control-regex
  const written = bytes.toString('utf8').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split('\n').map((line) => line.trimEnd());
  let at = 0;
  for (const line of written.filter((l) => l !== '')) {
    while (at < got.length && !got[at]!.startsWith(line)) at += 1;
    if (at === got.length) return false;
    at += 1;
  }
  return true;
}

describe('everyday commands, again and again', () => {
  const fenced = (...lines: string[]) => `\`\`\`\n${lines.map((line) => `${line}\n`).join('')}\`\`\`\n`;

  it('answers output without a final newline with its text, the prompt left out, every time', async () => {
    const pane = await h.shell();
    for (let round = 0; round < 2; round++) {
      expect(await ask(pane, 'printf hello', round === 0)).toBe(fenced('hello'));
      expect(await ask(pane, 'echo -n hello', round === 1)).toBe(fenced('hello'));
      expect(await ask(pane, "printf 'a b'", true)).toBe(fenced('a b'));
      expect(await ask(pane, "printf '\\e[31mred\\e[0m bold'", false)).toBe(fenced('red bold'));
      expect(await ask(pane, `printf '{"ok": true}'`, true)).toBe(fenced('{"ok": true}'));
    }
  });

  it('answers around clear even when the output repeats the screen before it', async () => {
    const pane = await h.shell();
    for (let round = 0; round < 3; round++) expect(await ask(pane, 'clear; echo one', round % 2 === 0)).toBe(fenced('one'));
    const fifty = Array.from({ length: 50 }, (_, i) => String(i + 1));
    expect(await ask(pane, 'clear; seq 1 50', true)).toBe(fenced(...fifty));
    expect(await ask(pane, 'clear; seq 1 50', false)).toBe(fenced(...fifty));
    for (let round = 0; round < 3; round++) expect(await ask(pane, 'seq 1 3; clear; echo after-clear', true)).toBe(fenced('1', '2', '3', 'after-clear'));
    expect(await ask(pane, "printf '\\e[H\\e[2J'; echo homed", false)).toBe(fenced('homed'));
    expect(await ask(pane, "printf '\\e[H\\e[2J'; echo homed", true)).toBe(fenced('homed'));
  });
});

describe('answers against a reference terminal rendering the pane bytes', () => {
  // The fixed seed, four seeds that once failed (junk that is not UTF-8, a `\r`, then the prompt
  // drawn over the row; junk that tmux lays out otherwise than a terminal, so the prompt's cells
  // must be found in the stream's own row; the same on the last row of a wrapped line, where the
  // capture's cursor column does not count from the start of the joined line; and the answer
  // after that one, whose prompt is not what that joined line reads), and a new one in CI;
  // CORRAL_TEST_SEED replays one alone.
  const seeds = process.env.CORRAL_TEST_SEED ? testSeeds(20261206) : [...new Set([...testSeeds(20261206), 1325791723, 1775408140, 1585746327, 686389388])];
  for (const seed of seeds) {
    it(`every shape of output comes back as the terminal showed it (seed ${seed})`, { timeout: 240_000 }, async () => {
      const random = seededRandom(seed);
      const generator = new ShapeGenerator(random);
      const loneRandom = seededRandom(seed ^ 0x10e5);
      const loneGenerator = new ShapeGenerator(loneRandom);
      const tally = new Map<Shape, Tally>([...SHAPES, ...LONE_SHAPES].map((shape) => [shape, { cases: 0, passed: 0, printedOnly: 0, failures: [] }]));
      const shells = await Promise.all(PANES.map((size, index) => markedShell(index, size.cols, size.rows)));
      // Every batch, generated up front so the run is the same whatever order the panes answer in.
      const batchFile = (name: string, cases: OutputCase[]) => {
        const parts: Buffer[] = [];
        cases.forEach((one, i) => {
          parts.push(one.bytes);
          // The marker erases the rest of its row: after a command that moved the cursor up, output lands on
          // old rows, whose ends stay where the new text is shorter (the terminal shows them so).
          if (i < cases.length - 1) parts.push(Buffer.from(`\n@@${i}@@\x1b[K\n`));
        });
        const file = join(dir, name);
        writeFileSync(file, Buffer.concat(parts));
        return { command: `cat ${file}`, cases };
      };
      const batches = PANES.map((_, p) =>
        Array.from({ length: BATCHES_PER_PANE }, (_, b) => {
          const batch = batchFile(`b${p}-${b}`, Array.from({ length: casesInBatch(b, random) }, () => generator.next(random.pick(SHAPES))));
          return loneAfter(b) ? [batch, batchFile(`b${p}-${b}-lone`, [loneGenerator.next(loneRandom.pick(LONE_SHAPES))]), CLEAR] : [batch];
        }).flat(),
      );
      const answers = await Promise.all(
        shells.map(async ({ pane }, p) => {
          const texts: string[] = [];
          for (const batch of batches[p]!) texts.push(await ask(pane, batch.command, PANES[p]!.stream));
          return texts;
        }),
      );
      for (const [p, { log }] of shells.entries()) {
        const size = PANES[p]!;
        // pipe-pane writes through a `cat` of its own: wait until every prompt has reached the log.
        const commands = batches[p]!.length;
        await waitUntil(() => countOf(readFileSync(log), PROMPT_STARTS) >= commands, 10_000, 'the pane log');
        const rendered = await renderCommands(readFileSync(log), size.cols, size.rows, '$ '.length);
        expect(rendered).toHaveLength(commands);
        for (const [b, batch] of batches[p]!.entries()) {
          if (batch.cases.length === 0) continue;
          // Spinner frames and unfinished progress bars are left out of answers by design (a lone
          // `-` from the junk is one): the terminal's lines less those.
          const expected = perCase(trimBlankEdges(rendered[b]!.filter((line) => !isProgressLine(line))), batch.cases.length);
          const got = perCase(answerLines(answers[p]![b]!), batch.cases.length);
          batch.cases.forEach((one, i) => {
            const entry = tally.get(one.shape)!;
            entry.cases += 1;
            if (matches(one.shape, one.bytes, got[i], expected[i])) entry.passed += 1;
            else if (LONE.has(one.shape) && printedKept(one.bytes, got[i])) entry.printedOnly += 1;
            else if (entry.failures.length < 3) {
              entry.failures.push(
                `pane ${p} batch ${b} case ${i}:\n  bytes:    ${JSON.stringify(one.bytes.toString('latin1'))}\n  terminal: ${JSON.stringify(expected[i])}\n  answer:   ${JSON.stringify(got[i])}` +
                  (got[i] === undefined ? `\n  whole answer: ${JSON.stringify(answers[p]![b]!.slice(0, 600))}` : ''),
              );
            }
          });
        }
      }
      const table = [...tally].map(
        ([shape, t]) =>
          `${shape.padEnd(24)} ${String(t.passed).padStart(5)}/${String(t.cases).padEnd(5)} ${((100 * t.passed) / Math.max(1, t.cases)).toFixed(1)}%${t.printedOnly > 0 ? `  (${t.printedOnly} more keep what was printed, not the old text beside it)` : ''}`,
      );
      console.log(`differential bridge test, seed ${seed}:\n${table.join('\n')}`);
      const failures = [...tally].flatMap(([, t]) => t.failures);
      expect(failures.join('\n')).toBe('');
      expect([...tally.values()].every((t) => t.cases > 0)).toBe(true);
    });
  }
});

const LONE = new Set<Shape>(LONE_SHAPES);

/**
 * Exactly the terminal's lines; for a scrolling region, which drops the lines it scrolls out
 * (a streamed answer gave them while they were on screen): the terminal's lines in order among
 * the answer's, blank rows aside, and any other line one the case printed. A line that wraps at
 * the region's bottom is one of the terminal's lines like any other: it must come back whole.
 */
function matches(shape: Shape, bytes: Buffer, got: string[] | undefined, expected: string[] | undefined): boolean {
  if (got === undefined || expected === undefined) return false;
  if (shape !== 'scrolling-region') return JSON.stringify(got) === JSON.stringify(expected);
  const printed = bytes.toString('utf8');
  let next = 0;
  const want = expected.filter((line) => line.trim() !== '');
  for (const line of got.filter((line) => line.trim() !== '')) {
    if (line === want[next]) next += 1;
    else if (!printed.includes(line)) return false;
  }
  return next === want.length;
}

function countOf(haystack: Buffer, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

// The attention record as processes share it: each joins the record tmux holds with its own and
// writes it back compare-and-set; whatever the order of looks, snoozes, answers, listings and
// writes, every process ends with the same record, and nothing any of them did is lost.

import { describe, expect, it } from 'vitest';
import { attentionView, mergeRecord, recordedSince, trackWait, waitId, withAnswer, withLook, withSnooze } from '../../../src/engine/attention/attention.js';
import { askOf, cutAsk } from '../../../src/engine/attention/ask.js';
import { decodeAttention, EMPTY_RECORD, encodeAttention, screenMark, type AttentionRecord, type RecordedWait } from '../../../src/engine/attention/record.js';
import { register, observe, type PaneTrack } from '../../../src/engine/pane/pane-machine.js';
import { classifyScreen, DEFAULT_RULES } from '../../../src/engine/prompt/matcher.js';
import { readLines } from '../../../src/engine/pane/screen-hash.js';
import { readFileSync } from 'node:fs';
import { SeededRandom, testSeeds } from '../../helpers/seeded-random.js';
import { paneInfo } from '../../helpers/fake-engine.js';

interface Process {
  own: AttentionRecord;
  /** The value it last listed (what its compare-and-set expects). */
  listed: string;
}

describe('attention records shared by several processes', () => {
  it('converge on one record holding every look, snooze and answer, whatever the schedule', () => {
    for (const seed of testSeeds(3801)) {
      const random = new SeededRandom(seed);
      for (let round = 0; round < 300; round++) {
        const wait: RecordedWait = { id: waitId('permission\u0000rule\u0000Deploy? [y/N]'), kind: 'permission', since: 1_000, worked: random.chance(0.5) };
        const processes: Process[] = Array.from({ length: random.int(2, 4) }, () => ({ own: EMPTY_RECORD, listed: '' }));
        let tmux = '';
        let lastLook = 0;
        let snoozed = false;
        let lastAnswer = 0;
        const list = (p: Process) => {
          p.listed = tmux;
          p.own = mergeRecord(p.own, decodeAttention(tmux), wait, 'Deploy? [y/N]');
        };
        const write = (p: Process) => {
          const value = encodeAttention(p.own);
          if (value !== p.listed && tmux === p.listed) tmux = value;
        };
        for (let step = 0; step < 40; step++) {
          const p = random.pick(processes);
          const at = 2_000 + step * 10;
          switch (random.int(0, 5)) {
            case 0:
              list(p);
              break;
            case 1:
              write(p);
              break;
            case 2:
              p.own = withLook(p.own, at);
              lastLook = at;
              break;
            case 3:
              if (p.own.wait !== null) {
                p.own = withSnooze(p.own);
                snoozed = true;
              }
              break;
            case 4:
              p.own = withAnswer(p.own, { at, surface: 'page', what: 'y' }, 'ffff0000');
              lastAnswer = at;
              break;
            default:
              list(p);
              write(p);
          }
        }
        // Each lists and writes in turn, twice over: they then agree.
        for (let pass = 0; pass < 2; pass++) for (const p of processes) {
          list(p);
          write(p);
        }
        const final = decodeAttention(tmux);
        const why = `seed ${seed}, round ${round}`;
        for (const p of processes) expect(encodeAttention(p.own), why).toBe(tmux);
        expect(final?.seenAt ?? 0, why).toBe(lastLook);
        expect(final?.snoozed !== null && final?.snoozed !== undefined, why).toBe(snoozed);
        expect(final?.answered?.at ?? 0, why).toBe(lastAnswer);
      }
    }
  });

  it('is a join: the same record merged again changes nothing', () => {
    const wait: RecordedWait = { id: 'abc', kind: 'stopped', since: 5, worked: true };
    const a = withLook(mergeRecord(EMPTY_RECORD, null, wait, '$'), 9);
    expect(mergeRecord(a, a, wait, '$')).toBe(a);
    expect(mergeRecord(a, decodeAttention(encodeAttention(a)), wait, '$')).toBe(a);
  });
});

/**
 * A track over screens, as the engine builds it (threshold 1 s), from a new pane or from `from`;
 * `resized`: the pane's size changed before that capture.
 */
function trackOf(screens: readonly { text: string; at: number; resized?: boolean }[], from?: PaneTrack): PaneTrack {
  let track = from ?? register(paneInfo({ paneId: '%1' }), 0).track;
  for (const { text, at, resized } of screens) {
    const { lines, hash } = readLines(text);
    track = observe(track, { hash, verdict: classifyScreen(lines, DEFAULT_RULES), changedAt: at, ...(resized ? { resized } : {}) }, at, { quietThresholdMs: 1_000 }).track;
  }
  return track;
}

describe('what needs the person', () => {
  const shell = 'me@box:~$ make\nbuilt\nme@box:~$ ';

  it('a prompt found on the first look is idle; one reached after working is new until looked at', () => {
    const first = trackOf([{ text: shell, at: 10 }, { text: shell, at: 5_000 }]);
    expect(first.state).toBe('stuck');
    const onFirst = mergeRecord(EMPTY_RECORD, null, trackWait(first), '');
    expect(attentionView(onFirst, first, 'new').need).toBeNull();
    expect(attentionView(onFirst, first, 'all').need).toBe('new');

    const worked = trackOf([{ text: 'me@box:~$ make\ncompiling', at: 10 }, { text: shell, at: 1_000 }, { text: shell, at: 5_000 }]);
    const record = mergeRecord(EMPTY_RECORD, null, trackWait(worked), '');
    expect(attentionView(record, worked, 'new').need).toBe('new');
    expect(attentionView(record, worked, 'asks').need).toBeNull();
    // A look before the wait began does not count; one after it does.
    expect(attentionView(withLook(record, 500), worked, 'new').need).toBe('new');
    expect(attentionView(withLook(record, 2_000), worked, 'new').need).toBeNull();
    expect(attentionView(withSnooze(record), worked, 'new')).toMatchObject({ need: null, snoozed: true });
  });

  it('a prompt laid out again for a new size is the wait it was: no new work, the look still counts', () => {
    // Viewing a window resizes it to the client; the program draws the same prompt for that size.
    const wider = 'me@box:~$ make\nbuilt\n\nme@box:~$ ';
    const found = trackOf([{ text: shell, at: 10 }, { text: shell, at: 5_000 }, { text: wider, at: 6_000, resized: true }, { text: wider, at: 9_000 }]);
    expect(attentionView(mergeRecord(EMPTY_RECORD, null, trackWait(found), ''), found, 'new').need).toBeNull();
    // The same screens with no resize: output that changed the screen, a new wait after work.
    const printed = trackOf([{ text: shell, at: 10 }, { text: shell, at: 5_000 }, { text: wider, at: 6_000 }, { text: wider, at: 9_000 }]);
    expect(attentionView(mergeRecord(EMPTY_RECORD, null, trackWait(printed), ''), printed, 'new').need).toBe('new');

    const worked = trackOf([{ text: 'me@box:~$ make\ncompiling', at: 10 }, { text: shell, at: 1_000 }, { text: shell, at: 3_000 }]);
    const seen = withLook(mergeRecord(EMPTY_RECORD, null, trackWait(worked), ''), 2_000);
    expect(attentionView(seen, worked, 'new').need).toBeNull();
    const redrawn = trackOf([{ text: wider, at: 4_000, resized: true }, { text: wider, at: 8_000 }], worked);
    expect(trackWait(redrawn)).toEqual(trackWait(worked));
    expect(attentionView(mergeRecord(seen, seen, trackWait(redrawn), ''), redrawn, 'new').need).toBeNull();
  });

  it('a question needs the person until answered on its screen or snoozed, seen or not', () => {
    const question = 'deploying\nDeploy to prod? [y/N] ';
    const track = trackOf([{ text: 'deploying', at: 10 }, { text: question, at: 100 }, { text: question, at: 5_000 }]);
    const record = withLook(mergeRecord(EMPTY_RECORD, null, trackWait(track), 'Deploy to prod? [y/N]'), 4_000);
    expect(attentionView(record, track, 'asks').need).toBe('asks');
    const answered = withAnswer(record, { at: 5_000, surface: 'next', what: 'y' }, track.contentHash);
    expect(attentionView(answered, track, 'all')).toMatchObject({ need: null, answered: { surface: 'next', what: 'y', on: screenMark(track.contentHash) } });
    // An answer given on another screen says nothing of this one.
    expect(attentionView(withAnswer(record, { at: 5_000, surface: 'page', what: 'y' }, 'beef'), track, 'new').need).toBe('asks');
  });

  it('takes the recorded moment of the same wait: on a first look always, later within the tolerance', () => {
    const track = trackOf([{ text: shell, at: 10_000 }]);
    const wait = trackWait(track)!;
    const listed = mergeRecord(EMPTY_RECORD, null, { ...wait, since: 2_000 }, '');
    expect(recordedSince(track, listed, 20_000)).toBe(2_000);
    expect(recordedSince(track, mergeRecord(EMPTY_RECORD, null, { ...wait, id: 'other' }, ''), 20_000)).toBeNull();
    const worked = trackOf([{ text: 'x', at: 10 }, { text: shell, at: 10_000 }]);
    const near = mergeRecord(EMPTY_RECORD, null, { ...trackWait(worked)!, since: 8_000 }, '');
    const far = mergeRecord(EMPTY_RECORD, null, { ...trackWait(worked)!, since: 1_000 }, '');
    expect(recordedSince(worked, near, 20_000)).toBe(8_000);
    expect(recordedSince(worked, far, 20_000)).toBeNull();
  });
});

describe('what a wait asks', () => {
  const ask = (file: string) => {
    const { lines } = readLines(readFileSync(new URL(`../../fixtures/recorded/${file}`, import.meta.url), 'utf8'));
    return askOf(classifyScreen(lines, DEFAULT_RULES), lines, null);
  };

  it('names the command or file of an agent dialog, and the question of a line prompt', () => {
    expect(ask('claude-code/100x30/permission--shell-approval.txt')).toMatch(/^touch \/tmp\/corral-rec\/claude-code-100x30\/outside\/ran-1\.txt/);
    expect(ask('codex/100x30/permission--shell-approval.txt')).toMatch(/^touch \/tmp\/corral-rec\/codex-100x30\/outside\/ran-1\.txt/);
    expect(ask('gemini-cli/100x30/permission--shell-approval.txt')).toMatch(/^Shell: touch \/tmp\/corral-rec\/gemini-cli-100x30\/outside\/ran-1\.txt/);
    expect(ask('claude-code/100x30/permission--edit-approval.txt')).toMatch(/^Create file: notes\.txt/);
    expect(ask('codex/100x30/permission--edit-approval.txt')).toMatch(/^\/tmp\/corral-rec\/codex-100x30\/outside\/notes\.txt/);
    expect(ask('gemini-cli/100x30/permission--edit-approval.txt')).toMatch(/^WriteFile: Writing to notes\.txt/);
    const { lines } = readLines('$ ./deploy\nDeploy to prod? [y/N] ');
    expect(askOf(classifyScreen(lines, DEFAULT_RULES), lines, null)).toBe('Deploy to prod? [y/N]');
    expect(askOf(null, [], 'Bash: rm -rf build\nsecond line')).toBe('Bash: rm -rf build second line');
  });

  it('is cut to a width keeping its start and its end', () => {
    expect(cutAsk('touch /tmp/a/very/long/path/to/the/file.txt', 20)).toBe('touch /tmp/a…ile.txt');
    expect([...cutAsk('x'.repeat(50), 20)]).toHaveLength(20);
    expect(cutAsk('short', 20)).toBe('short');
  });
});

// Short timed recordings ("films") of a pane: its screen sampled every few hundred milliseconds with
// tmux's stamp of its last output, stored as the frames that changed (each one the rows that
// differ from the frame before). The recorder films an agent while it waits and while it works;
// the replay test serves the frames to the engine at their times.
//
// A film file, `<label>--<name>.film.json` beside the still screens of its size, holds:
//   { tool, size, name, label, version, sampleMs, marks: { drawn?, running?, done? },
//     frames: [ { at, activity, alternateOn, rows: [...] }, { at, set: [[row, text], ...], activity?, alternateOn? }, ... ] }
// `at` and `activity` are milliseconds from the film's start (activity: the start of the second tmux
// stamped the window with, `window_activity`), `marks` the times the walk saw a state arrive.

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Splits one chained sample: the capture's rows, then the line `display-message` printed. */
function parseSample(out) {
  const text = out.replace(/\n$/, '');
  const cut = text.lastIndexOf('\n');
  const [activity, alternate] = text.slice(cut + 1).split(' ');
  return { rows: text.slice(0, Math.max(0, cut)).split('\n'), activity: Number(activity) * 1000, alternateOn: alternate === '1' };
}

/**
 * Starts filming `pane` through `tmux(...args)` (the recorder's private server). Returns
 * `mark(name)`, which notes the time a state arrived, and `stop()`, which resolves to the film.
 */
export function startFilm(tmux, pane, { sampleMs = 100 } = {}) {
  const start = Date.now();
  const frames = [];
  const marks = {};
  let previous = null;
  let running = true;
  const sample = async () => {
    const at = Date.now() - start;
    const out = await tmux('capture-pane', '-p', '-t', pane, ';', 'display-message', '-p', '-t', pane, '#{window_activity} #{alternate_on}');
    const now = parseSample(out);
    const activity = now.activity - start;
    if (previous === null) {
      frames.push({ at, activity, alternateOn: now.alternateOn, rows: now.rows });
    } else {
      const frame = { at };
      const set = [];
      for (let row = 0; row < Math.max(now.rows.length, previous.rows.length); row++) {
        if ((now.rows[row] ?? '') !== (previous.rows[row] ?? '')) set.push([row, now.rows[row] ?? '']);
      }
      if (set.length > 0) frame.set = set;
      if (now.rows.length !== previous.rows.length) frame.length = now.rows.length;
      if (activity !== previous.activity) frame.activity = activity;
      if (now.alternateOn !== previous.alternateOn) frame.alternateOn = now.alternateOn;
      if (Object.keys(frame).length > 1) frames.push(frame);
    }
    previous = { rows: now.rows, activity, alternateOn: now.alternateOn };
  };
  const loop = (async () => {
    while (running) {
      const began = Date.now();
      try {
        await sample();
      } catch {
        // the pane went away: the film ends with what it has
        running = false;
      }
      await sleep(Math.max(0, sampleMs - (Date.now() - began)));
    }
  })();
  return {
    mark(name) {
      if (marks[name] === undefined) marks[name] = Date.now() - start;
    },
    async stop() {
      running = false;
      await loop;
      return { sampleMs, marks, frames, durationMs: Date.now() - start };
    },
  };
}

/** A film's frames as whole screens: [{ at, activity, alternateOn, screen }], in time order. */
export function expandFrames(frames) {
  const out = [];
  let rows = [];
  let activity = 0;
  let alternateOn = false;
  for (const frame of frames) {
    if (frame.rows) rows = [...frame.rows];
    for (const [row, text] of frame.set ?? []) rows[row] = text;
    if (frame.length !== undefined) rows.length = frame.length;
    if (frame.activity !== undefined) activity = frame.activity;
    if (frame.alternateOn !== undefined) alternateOn = frame.alternateOn;
    out.push({ at: frame.at, activity, alternateOn, screen: rows.map((r) => r ?? '').join('\n') });
  }
  return out;
}

const FILM = /^(permission|stopped|busy|none)--([\w.-]+)\.film\.json$/;

/** Every film under the recorded fixtures: { tool, size, name, label, file, ...the stored film }. */
export function readFilms(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const tool of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const size of readdirSync(join(dir, tool), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
      for (const file of readdirSync(join(dir, tool, size)).filter((f) => f.endsWith('.film.json')).sort()) {
        const match = FILM.exec(file);
        if (!match) throw new Error(`film ${tool}/${size}/${file}: name must be <label>--<name>.film.json`);
        const film = JSON.parse(readFileSync(join(dir, tool, size, file), 'utf8'));
        out.push({ ...film, tool, size, label: match[1], name: match[2], file: `${tool}/${size}/${file}` });
      }
    }
  }
  return out;
}

/**
 * What changes on screen while each filmed wait is up (from a second after it was drawn): how many
 * different screens, how many once animation is masked (`content(lines)` gives a screen's content
 * hash), and one row that changed, before and after. A Markdown table for the README.
 */
export function animationMarkdown(films, content) {
  const clip = (text) => {
    const t = text.trim();
    return `\`${(t.length > 46 ? `${t.slice(0, 45)}…` : t || '(blank)').replace(/\|/g, '\\|').replace(/`/g, "'")}\``;
  };
  const rows = films
    .filter((f) => f.label !== 'busy' && f.marks.drawn !== undefined)
    .map((film) => {
      const all = expandFrames(film.frames);
      const from = film.marks.drawn + 1000;
      // The screen shown a second after it was drawn, then every change after it.
      const first = all.filter((f) => f.at <= from).at(-1);
      const frames = [...(first ? [first] : []), ...all.filter((f) => f.at > from)];
      const screens = new Set(frames.map((f) => f.screen.replace(/[ \t]+$/gm, '').replace(/\n+$/, '')));
      const contents = new Set([...screens].map((s) => content(s.split('\n'))));
      let example = '–';
      for (let i = 1; i < frames.length && example === '–'; i++) {
        const before = frames[i - 1].screen.split('\n');
        const after = frames[i].screen.split('\n');
        const row = after.findIndex((line, n) => line.trimEnd() !== (before[n] ?? '').trimEnd());
        if (row >= 0) example = `${clip(before[row] ?? '')} → ${clip(after[row])}`;
      }
      const changes = frames.filter((f, i) => i > 0 && f.screen !== frames[i - 1].screen).length;
      return `| ${film.tool} | ${film.name} | ${changes} | ${screens.size} | ${contents.size} | ${example} |`;
    });
  return [
    '| agent | film | changes while it waits | different screens | different once animation is masked | a row that changed |',
    '|---|---|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

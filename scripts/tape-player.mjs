// Reads a VHS tape (demo.tape) and plays it into a tmux pane, so the tape can be tested and
// rendered without VHS. Understands the commands the tape uses (Type, Enter, Escape, arrows,
// Ctrl+X, Sleep, Hide/Show) and two comment conventions VHS ignores:
//   # size: COLSxROWS   the terminal size to play in
//   # expect: TEXT      the screen must show TEXT after the steps above (or /REGEX/)

const KEYS = {
  Enter: 'Enter',
  Escape: 'Escape',
  Backspace: 'BSpace',
  Tab: 'Tab',
  Space: 'Space',
  Up: 'Up',
  Down: 'Down',
  Left: 'Left',
  Right: 'Right',
  PageUp: 'PPage',
  PageDown: 'NPage',
};

const SETTING_COMMANDS = new Set(['Output', 'Set', 'Require', 'Source', 'Env']);

/** Durations as VHS writes them: `2s`, `500ms`, `1.5s`, or a bare number of seconds. */
export function parseDuration(text) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new Error(`bad duration ${JSON.stringify(text)}`);
  const value = Number(m[1]);
  return m[2] === 'ms' ? value : m[2] === 'm' ? value * 60_000 : value * 1000;
}

function unquote(text, lineNo) {
  const t = text.trim();
  const q = t[0];
  if ((q === '"' || q === "'" || q === '`') && t.endsWith(q) && t.length >= 2) return t.slice(1, -1);
  throw new Error(`line ${lineNo}: expected a quoted string, got ${t}`);
}

/**
 * Parses a tape into { settings, size, steps }. Steps: {kind: 'type', text, speedMs?} | {kind: 'key',
 * key, count} | {kind: 'sleep', ms} | {kind: 'hide'} | {kind: 'show'} | {kind: 'expect', text | regex}.
 * Throws on lines it does not understand, and when a setting comes after the first command
 * (VHS ignores such settings).
 */
export function parseTape(source) {
  const settings = [];
  const steps = [];
  let size = null;
  let sawCommand = false;
  source.split(/\r?\n/).forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trim();
    if (line === '') return;
    if (line.startsWith('#')) {
      const size_ = /^#\s*size:\s*(\d+)x(\d+)\s*$/.exec(line);
      if (size_) size = { columns: Number(size_[1]), rows: Number(size_[2]) };
      const expect = /^#\s*expect:\s*(.+)$/.exec(line);
      if (expect) {
        const text = expect[1].trim();
        const regex = /^\/(.+)\/([a-z]*)$/.exec(text);
        steps.push(
          regex
            ? { kind: 'expect', regex: new RegExp(regex[1], regex[2]), line: lineNo }
            : { kind: 'expect', text, line: lineNo },
        );
      }
      return;
    }
    const [word = '', ...restParts] = line.split(/\s+/);
    const rest = line.slice(word.length).trim();
    if (SETTING_COMMANDS.has(word)) {
      if (sawCommand && word === 'Set') throw new Error(`line ${lineNo}: settings must come before the first command`);
      settings.push({ command: word, value: rest, line: lineNo });
      return;
    }
    sawCommand = true;
    const typed = /^Type(?:@(\S+))?\s+(.+)$/.exec(line);
    if (typed) {
      steps.push({
        kind: 'type',
        text: unquote(typed[2], lineNo),
        ...(typed[1] ? { speedMs: parseDuration(typed[1]) } : {}),
        line: lineNo,
      });
      return;
    }
    if (word === 'Sleep') {
      steps.push({ kind: 'sleep', ms: parseDuration(rest), line: lineNo });
      return;
    }
    if (word === 'Hide' || word === 'Show') {
      steps.push({ kind: word.toLowerCase(), line: lineNo });
      return;
    }
    const name = word.replace(/@\S+$/, '');
    const count = restParts.length > 0 ? Number(restParts[0]) : 1;
    if (!Number.isInteger(count) || count < 1) throw new Error(`line ${lineNo}: bad repeat count in ${line}`);
    const ctrl = /^Ctrl\+([A-Za-z@[\]\\^_])$/.exec(name);
    if (ctrl) {
      steps.push({ kind: 'key', key: `C-${ctrl[1].toLowerCase()}`, count, line: lineNo });
      return;
    }
    if (KEYS[name]) {
      steps.push({ kind: 'key', key: KEYS[name], count, line: lineNo });
      return;
    }
    throw new Error(`line ${lineNo}: unknown tape command ${JSON.stringify(line)}`);
  });
  const typingSpeed = settings.find((s) => s.command === 'Set' && /^TypingSpeed\s/.test(s.value));
  return {
    settings,
    size,
    typingSpeedMs: typingSpeed ? parseDuration(typingSpeed.value.replace(/^TypingSpeed\s+/, '')) : 50,
    output: settings.find((s) => s.command === 'Output')?.value ?? null,
    steps,
  };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Plays the steps into a tmux pane. `tmux(...args)` runs tmux on the right socket and returns
 * stdout. `onExpect(step, screen)` is called with the screen once an expectation holds (or with
 * the last screen on timeout, and then playTape throws). `onStep` sees every step as it starts.
 */
export async function playTape({
  tape,
  tmux,
  paneId,
  typingDelayMs = tape.typingSpeedMs,
  expectTimeoutMs = 10_000,
  onStep = () => {},
}) {
  const capture = () => tmux('capture-pane', '-p', '-t', paneId);
  for (const step of tape.steps) {
    await onStep(step);
    switch (step.kind) {
      case 'type':
        for (const ch of step.text) {
          await tmux('send-keys', '-t', paneId, '-l', ch);
          await pause(step.speedMs ?? typingDelayMs);
        }
        break;
      case 'key':
        for (let i = 0; i < step.count; i++) {
          await tmux('send-keys', '-t', paneId, step.key);
          await pause(typingDelayMs);
        }
        break;
      case 'sleep':
        await pause(step.ms);
        break;
      case 'expect': {
        const deadline = Date.now() + expectTimeoutMs;
        for (;;) {
          const screen = await capture();
          const ok = step.regex ? step.regex.test(screen) : screen.includes(step.text);
          if (ok) break;
          if (Date.now() > deadline) {
            throw new Error(
              `demo.tape line ${step.line}: expected ${step.regex ?? JSON.stringify(step.text)} on screen; it showed:\n${screen}`,
            );
          }
          await pause(100);
        }
        break;
      }
      default:
        break;
    }
  }
}

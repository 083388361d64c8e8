// Recognises lines that only report progress: spinner frames, "esc to interrupt" status lines
// of agent TUIs and bare progress bars. They say nothing once the work is done, so the answer
// leaves them out. (Redraws on the cursor line never get this far: see screen-diff.ts.)

const STATUS_HINT = /\b(esc|ctrl\+c|ctrl-c)\s+to\s+(interrupt|cancel|stop)\b/i;
// Braille spinners (⠋⠙⠹ ...) and the glyphs agent TUIs animate.
const SPINNER_GLYPH = /^[\u2801-\u28ff✢✳✶✻✽✺❋◐◓◑◒◴◷◶◵⣾⣽⣻⢿⡿⣟⣯⣷]/u;
const ASCII_SPINNER_ONLY = /^[|/\\-]$/;
const BAR_CHARS = /[█▉▊▋▌▍▎▏▓▒░#=>]{4,}|\[[=#>. -]{4,}\]/;
const PERCENT = /(\d{1,3}(?:\.\d+)?)\s?%/;

export function isProgressLine(line: string): boolean {
  const text = line.trim();
  if (text === '') return false;
  if (STATUS_HINT.test(text)) return true;
  if (ASCII_SPINNER_ONLY.test(text)) return true;
  if (SPINNER_GLYPH.test(text)) {
    // A glyph followed by a short phrase ("⠋ Installing…", "✻ Thinking…") is a spinner frame.
    const rest = text.slice([...text][0]!.length).trim();
    if (rest === '' || rest.length <= 60) return true;
  }
  // An unfinished bar: bar characters and a percentage below 100.
  const pct = PERCENT.exec(text);
  if (pct && BAR_CHARS.test(text) && Number(pct[1]) < 100) return true;
  return false;
}

// What a wait asks, in one line, for every surface: the tool and its input where the agent's hook
// sent them (`Bash: rm -rf build`), else read from the screen: the command or file a dialog shows
// above its question, or the question of a line prompt itself. Pure; the result is plain text that
// readers still make terminal-safe and cut to their width (cutAsk keeps the telling part).

import type { PromptVerdict } from '../types.js';
import { MAX_ASK } from './record.js';

/** Box borders and rules a dialog is drawn with, at the start or end of a line. */
const BORDER = /^[\s│┃║|╭╮╰╯┌┐└┘─━═╌┄┈▔▁]+|[\s│┃║|╭╮╰╯┌┐└┘─━═╌┄┈▔▁]+$/g;
/** A line that is only a rule. */
const RULE = /^[\s─━═╌┄┈▔▁╭╮╰╯┌┐└┘│┃-]*$/;
/** A shell command shown for approval: `$ touch x`. */
const COMMAND = /^\$\s+(\S.*)$/;
/** A tool named before its input: `? Shell  touch x`, `? WriteFile  Writing to notes.txt`. */
const TOOL = /^\?\s+([A-Za-z][\w.-]{0,30})\s{2,}(\S.*)$/;
/** A labelled target: `Destination: /tmp/notes.txt`, `File: app.ts`. */
const TARGET = /^(?:Destination|File|Path|Command|URL|Url):\s+(\S.*)$/;
/** A title a dialog puts over its subject: `Bash command`, `Create file`, `Edit file`, `Fetch`. */
const TITLE = /^(?:Bash command|(?:Create|Edit|Write|Read|Delete|Update) file|Fetch|Web fetch|Tool use|MCP tool|Shell command)$/i;
/** Lines of a dialog that describe rather than name: tips and reasons. */
const CHATTER = /^(?:Tip:|Reason:|Environment:|Description:|Esc to|Press enter)/i;

function bare(line: string): string {
  return line.replace(BORDER, '').trim();
}

/**
 * The subject of a dialog, from the lines above its question: a `$ command`, a tool and its input,
 * a labelled target, or under a title the command nearest the question (a command dialog) or the
 * line right below the title (a file dialog). Null when none is named.
 */
function dialogSubject(above: readonly string[]): string | null {
  const lines = above.map(bare);
  let nearest: string | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line === '' || RULE.test(above[i]!)) continue;
    const command = COMMAND.exec(line);
    if (command) return command[1]!;
    const tool = TOOL.exec(line);
    if (tool) return `${tool[1]}: ${tool[2]}`;
    const target = TARGET.exec(line);
    if (target) return target[1]!;
    if (TITLE.test(line)) {
      if (/command/i.test(line)) return nearest;
      const below = lines.slice(i + 1).find((l, k) => l !== '' && !RULE.test(above[i + 1 + k]!) && !CHATTER.test(l));
      return below === undefined ? null : `${line}: ${below}`;
    }
    if (nearest === null && !CHATTER.test(line)) nearest = line;
  }
  return null;
}

/**
 * What the wait asks: the hook's message when it sent one, the subject of the dialog around a
 * permission prompt, else the prompt line itself ('' when the screen shows no wait).
 */
export function askOf(verdict: PromptVerdict | null, lines: readonly string[], hookMessage: string | null): string {
  if (hookMessage !== null && hookMessage.trim() !== '') return oneLine(hookMessage);
  if (verdict === null || !verdict.prompt || verdict.busy) return '';
  const question = bare(verdict.line);
  // A menu's dialog names its subject around the question; a line prompt's question is its own subject.
  if (verdict.reason === 'permission' && verdict.answer?.kind === 'key') {
    const at = lastIndexOf(lines, verdict.line);
    const subject = at < 0 ? null : (namedBelow(lines.slice(at + 1, at + 9)) ?? dialogSubject(lines.slice(Math.max(0, at - 14), at)));
    if (subject !== null) return oneLine(question === '' ? subject : `${subject} (${question})`);
  }
  return oneLine(question);
}

/** An option of the dialog's menu (`› 1. Yes`): where the lines below a question stop naming its subject. */
const OPTION = /^[›❯>●*]?\s*\d+[.)]\s/;

/** A command, tool or target a dialog names right below its question (Codex puts them there). */
function namedBelow(below: readonly string[]): string | null {
  for (const raw of below) {
    const line = bare(raw);
    if (OPTION.test(line)) return null;
    const command = COMMAND.exec(line) ?? TARGET.exec(line);
    if (command) return command[1]!;
    const tool = TOOL.exec(line);
    if (tool) return `${tool[1]}: ${tool[2]}`;
  }
  return null;
}

function lastIndexOf(lines: readonly string[], line: string): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i] === line || lines[i]!.includes(line.trim())) return i;
  return -1;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, MAX_ASK);
}

/**
 * An ask cut to `width` characters, keeping its start (the tool, the verb) and its end (the file,
 * the last argument), with `…` between them.
 */
export function cutAsk(ask: string, width: number): string {
  const chars = [...ask];
  if (chars.length <= width) return ask;
  if (width <= 1) return '…'.slice(0, width);
  const head = Math.ceil((width - 1) * 0.6);
  const tail = width - 1 - head;
  return `${chars.slice(0, head).join('')}…${tail > 0 ? chars.slice(-tail).join('') : ''}`;
}

// Programs of any kind, on the last line: yes/no questions (`[y/N]`, `[Y/n]`, `(yes/no)`, `(y/n)`,
// conda, dpkg), secrets and credentials (`[sudo] password for x:`, `Enter passphrase for key …:`,
// `Password:`, `Enter PIN …:`, `Username for '…':`), ssh's host key question, terraform's approval,
// `rm -i`, questions with a default (`Key name [release]:`, npm init), "Press Enter to continue",
// pagers; arrow-key menus near the bottom; and the busy hints many tools share ("esc to interrupt",
// "ctrl+c to cancel", a spinner next to a running timer).

import { BUSY_REGION_LINES, type RuleSet } from '../rule.js';

/**
 * Lines that end an agent's turn. A busy line with one of these below it is left over from the
 * turn before: a summary ("✻ Worked for 1m 2s", "─ Worked for 12s ───"), an interruption, or the
 * agent's next reply (`⏺ …`, `● …`, `• …`) drawn under the old status.
 */
export const TURN_END =
  /^(?:[^\w\s]\s*)?[A-Z][a-z]+ed for (?:\d+h\s*)?(?:\d+m\s*)?\d+(?:\.\d+)?[ms]\b|^─+ Worked for\b|^■ Conversation interrupted\b|^Interrupted\b|^[⏺●•]\s+[^\s⎿]/;

/**
 * A question a dialog asks: an approval verb, "Do you want to …?", "Would you like to …?",
 * "Let Cline use this tool?"; an optional "[act mode]" tag or warning sign in front.
 */
const QUESTION =
  /^(?:\[[\w ]+\]\s*)?(?:[⚠△?]\s*)?(?:(?:Allow|Approve|Confirm|Proceed|Continue|Execute|Apply|Run|Accept|Overwrite|Replace|Delete|Remove|Install|Write|Trust|Save|Create|Edit|Use)\b[^?]{0,70}|Do you (?:want|trust|wish)\b[^?]{1,90}|Would you like\b[^?]{1,90}|Let \S+ use this tool|Are you sure\b[^?]{0,70}|Shall I\b[^?]{1,70})\?$/i;

/** The same dialog starters when an old UI drew them without the question mark, over a bare cursor. */
const QUESTION_NO_MARK = /^(?:Allow execution\b.*|Apply this change|Do you want to proceed)$/;

/** A dialog title with no question: "⚠ Approval Required", "Permission required", "Action Required". */
const TITLE =
  /^(?:[⚠△]\s*)?(?:Approval|Permission|Action|Confirmation) Required$|^Please (?:log ?in|sign in)\b.{0,60}\bto continue\.?$/i;

/** The words a dialog's options start with. */
const OPTION_WORD =
  /(?:\d{1,2}[.)]\s+\S|(?:Yes|No|Allow|Approve|Accept|Deny|Reject|Decline|Run|Proceed|Skip|Trust|Continue|Cancel|Always|Don't|Never|Keep|Open|Exit|Quit|Retry|Submit|Save|Discard|Apply|Edit|Once|Log ?in|Sign in)\b)/;
/** An option under the cursor: `❯ 1. Yes`, `› Allow once`, `> Yes, I trust this folder`, `→ Run (once) (y)`, `● Allow`. */
const CURSOR_OPTION = new RegExp(`^(?:[❯›●◉→▶►]|>)\\s*${OPTION_WORD.source}`);
/** An option of the same menu, with or without the cursor. */
const ANY_OPTION = new RegExp(`^(?:(?:[❯›●◉○◯→▶►]|>|\\[[ x]\\])\\s*)?${OPTION_WORD.source}`);
/** A second option: a numbered entry or a way to say no. */
const OTHER_OPTION =
  /^(?:[❯›●◉○◯→▶►]\s*|>\s*)?(?:[2-9][.)]\s+\S|(?:No|Deny|Reject|Decline|Skip|Cancel|Don't|Never|Exit|Quit)\b)/;
/**
 * A question over a bare cursor: the dialog starters, with or without their question mark, and
 * yes/no questions (`Continue? [y/n]`, `Apply changes? (y/n)`, `(y) (enter)`). Exported for the
 * REPL rule, which must not read that cursor as Node's prompt.
 */
export const QUESTION_OVER_CURSOR = new RegExp(
  `${QUESTION.source}|${QUESTION_NO_MARK.source}|\\?\\s*(?:\\[y\\/n\\]|\\(y\\/n\\)|\\(y\\)\\s*\\(enter\\))$`,
  'i',
);

/**
 * A line that says an agent's turn is over: its summary ("✻ Worked for 1m 2s", "Worked for <1s • 10:12")
 * or a notice that the turn stopped ("■ Conversation interrupted", "■ exceeded retry limit …").
 */
const TURN_OVER = /^(?:[^\w\s]\s*)?[A-Z][a-z]+ed for\b|^■\s+\S|^Interrupted\b/;

/** The rest of a line that a narrow pane wrapped: a few words, lower case first, no glyph. */
const WRAPPED_TAIL = /^[a-z][\w ,.'’-]{0,40}$/;

/**
 * What an agent draws over its input before any conversation: its banner's folder line
 * ("/home/me/src/app") or the last row of a logo drawn in braille.
 */
const BANNER_END = /^[~/][\w./@+-]*$|^[⠀-⣿][⠀-⣿ ]{5,}$/;

/** The files in an agent's chat, listed over its prompt: "src/router.ts README.md". */
const FILE_LIST = /^(?:[\w.-]+\/)*[\w-][\w.-]*\.\w+(?:\s+(?:[\w.-]+\/)*[\w-][\w.-]*\.\w+)*$/;

/** An agent's input line: its prompt glyph with a draft, a placeholder or nothing after it. */
const INPUT_LINE = /^[>❯›](?:\s.*)?$/;

/**
 * A footer hint that names the key for an input's commands or shortcuts: "ctrl+p commands",
 * "· / commands", "? for shortcuts".
 */
const INPUT_FOOTER_HINT = /(?:^|\s{2,}|·\s)(?:(?:ctrl|alt)\+[a-z]|\/|\?) (?:for )?(?:commands|shortcuts)\b/i;

/** The bottom edge of an input box: a rule of box lines or half blocks, maybe with its corner. */
const INPUT_BOX_BOTTOM = /^[╹╰└]?[▀▔─━]{10,}[╯┘]?$/;

/** A bare cursor: the line a dialog waits on in some UIs (`>`, `│ >`), or an empty REPL prompt. */
const BARE_CURSOR = /^[>❯›]$/;
/** An agent's input box edge: a dialog above it is over (the box is drawn only when no dialog is open). */
const INPUT_BOX_EDGE = /^─{10,}$/;

/** The key hints under a dialog or picker. */
const DIALOG_HINT =
  /^(?:press )?enter to (?:select|confirm|submit|choose|continue)\b.*\besc(?:ape)? to (?:cancel|exit|go back|dismiss|reject)\b|(?:^|[,·|]\s*)(?:press )?enter to (?:select|confirm|submit|choose)\b|\benter to submit answer\b|^confirm with .{1,30}\benter$|^↑↓ navigate(?:\s+|\s*[•·|]\s*)enter select\b|^↑\/↓ (?:to )?navigate\s*[·|]\s*enter\b|^↑↓ select\s+enter submit\s+esc dismiss$|^↑\/↓: Navigate \| Enter: Select \| Esc: Cancel$|^\(Use Enter to select\)$|^Press enter to confirm or esc to (?:cancel|go back)$|^esc to cancel · tab to amend\b/i;

/** A hint that says how to move through a list and pick from it. */
const OPTION_LIST_HINT =
  /(?:↑↓|↑\/↓|\barrow(?: key)?s?\b|\bnavigate\b).{0,40}\b(?:enter|return)\b.{0,12}\b(?:to )?(?:select|choose|confirm|submit|pick)\b|\b(?:enter|return)\b.{0,12}\b(?:to )?(?:select|choose|confirm)\b.{0,40}(?:↑↓|↑\/↓|\barrow(?: key)?s?\b|\bnavigate\b)/i;
/** The first and second entries of a numbered or lettered list, with or without a cursor. */
const OPTION_FIRST = /^(?:(?:[❯›●○◯▶►→]|>)\s*)?(?:1[.)]|\(?a\))\s+\S/;
const OPTION_SECOND = /^(?:(?:[❯›●○◯▶►→]|>)\s*)?(?:2[.)]|\(?b\))\s+\S/;

export const genericRules: RuleSet = {
  tool: 'generic',
  rules: [
    {
      // Not in a list item quoting it, not on a dialog's own hint line ("tab to add notes |
      // enter to submit answer | esc to interrupt"): the dialog is what waits there; and not in a
      // startup tip ("● Tip Press escape to stop the AI mid-response", under Kilo Code's idle input).
      id: 'generic/interrupt-hint',
      kind: 'busy',
      pattern: /\b(?:esc|escape) to (?:interrupt|stop)\b|\besc interrupt\b(?!\s*·)|\b(?:ctrl\+c|ctrl-c|\^C) to (?:interrupt|stop|cancel|abort)\b/i,
      unless: /^[-*] |\benter to (?:select|submit|confirm)\b|^(?:[●•]\s*)?Tip\b:?\s/i,
      within: BUSY_REGION_LINES,
      notBelow: TURN_END,
    },
    {
      // A status with its timer before the hint: "(7s · ↓ 8 tokens · esc to cancel)". "esc to cancel"
      // alone is not busy (dialogs offer it); with a running timer in the same brackets it is.
      id: 'generic/timer-hint',
      kind: 'busy',
      // On a narrow pane the hint is cut short at the edge: "(2s • esc to i…".
      pattern:
        /\((?:\d+h\s*)?(?:\d+m\s*)?\d+(?:\.\d+)?s\b[^()]*\b(?:(?:esc|ctrl\+c) to (?:cancel|interrupt|stop)\)|esc(?: to)?(?: [a-z]{0,9})?…$)/i,
      notBelow: TURN_END,
    },
    {
      // A spinner glyph, a phrase, and a running counter: "⠋ Building (12s)", "◐ Indexing · 1m 3s".
      id: 'generic/spinner-timer',
      kind: 'busy',
      pattern: /^[⠁-⣿◐◓◑◒◴◷◶◵◜◝◞◟◠◡]\s+\S.*?(?:\(|\[|·|•|-)\s*(?:\d+h\s*)?(?:\d+m\s*)?\d+(?:\.\d+)?s\b/,
      notBelow: TURN_END,
    },
    {
      // The live counter of a turn: "(9m 21s · ↓ 13.7k tokens)". The summary after it says "Worked for".
      id: 'generic/token-counter',
      kind: 'busy',
      pattern: /\(\s*(?:\d+h\s*)?(?:\d+m\s*)?(?:\d+s\s*)?·\s*(?:[↑↓]\s*)?[\d.,]+k?\s+tokens\b/i,
      notBelow: TURN_END,
    },
    {
      // A braille spinner beside a word ("⠋ Processing request...", "generating ⠋"), or alone; not
      // one that spins while the program waits for a person ("⠏ Waiting for user confirmation...").
      id: 'generic/braille-spinner',
      kind: 'busy',
      pattern: /^[⠁-⣿]{1,2}(?:\s+(?!Waiting for (?:user|your)\b)[A-Za-z].*)?$|^[A-Za-z][\w .-]{0,40}\s[⠁-⣿]{1,2}$/,
      // As captured: a glyph at the end of a line in a box is the box's content, not a spinner.
      raw: true,
      within: 6,
      notBelow: TURN_END,
    },
    {
      // A spinner glyph before one word in -ing and an ellipsis, the way agents show a turn at
      // work: "✽ Tempering…", "· Sautéing…", "● Pondering…", "✢ Channelling… (2m 54s)". The summary left after
      // the turn ("✻ Worked for 1m 2s") has no ellipsis, and a reply under it ends the turn.
      id: 'generic/spinner-word',
      kind: 'busy',
      pattern: /^[·*●✢✳✶✻✽✱✲✴✵✷✸✹✺✼✾✿❀❁❂❃❇❈❉❊❋✤✥✦✧⠁-⣿◐◓◑◒]\s+\p{Lu}\p{Ll}+ing(?:…|\.{3})(?:\s*\([^()]*\))?$/u,
      within: 8,
      notBelow: TURN_END,
    },
    {
      // A glyph before a word agents use for their own state: "█ Thinking...", "◆ Working…".
      id: 'generic/status-glyph-word',
      kind: 'busy',
      pattern: /^[^\w\s]{1,2}\s+(?:Thinking|Reasoning|Working|Generating|Processing)\b.{0,40}(?:\.{3}|…)$/,
      within: 6,
      notBelow: TURN_END,
    },
    {
      // A word agents use for their own state, alone on the last line with a few words after it:
      // "thinking", "Reasoning…", "working on task", "waiting for response from API". Verbs any
      // program prints ("Downloading...", "Compiling tokio") are not among them.
      id: 'generic/status-word',
      kind: 'busy',
      pattern:
        /^(?:thinking|reasoning|pondering|analy[sz]ing|computing|processing|generating|working|executing)\b(?:\s+[\w./'-]+){0,3}\s*(?:\.{3}|…)?$|^waiting for (?:a |the )?(?:tool )?response\b[\w .…]{0,30}$/i,
      within: 1,
    },
    {
      // A cancel hint under an activity in progress: "Running command..." over "Press Esc to cancel".
      // Alone, "esc to cancel" is a dialog's hint as often as a worker's.
      id: 'generic/cancel-under-activity',
      kind: 'busy',
      pattern: /^press esc to cancel\b/i,
      above: /^[A-Za-z]+ing\b.*(?:\.{3}|…)$/,
      within: 2,
    },
    {
      // An activity glyph, a verb in -ing, dots: "⬡ Grepping..", "⬢ Reading...".
      id: 'generic/activity',
      kind: 'busy',
      pattern: /^[⬡⬢◐◓◑◒]\s+[A-Z][a-z]+ing\b.{0,60}(?:\.{2,3}|…)$/,
      within: 6,
      notBelow: TURN_END,
    },
    {
      // A scanner of block cells before what the program waits on: "█░   Waiting for openai/gpt-5",
      // "░█   Updating repo map".
      id: 'generic/scanner',
      kind: 'busy',
      pattern: /^[░▒▓█]{1,3}\s+[A-Z][a-z]+ing\b/,
      within: 2,
    },
    {
      // A bar with a mark bouncing inside it, at the end of a status: "Waiting for LLM [──≡=───]".
      id: 'generic/bouncing-bar',
      kind: 'busy',
      pattern: /\s\[(?=[-─=]*[#≡])[-─=#≡]{5,}\]$/,
      within: 1,
    },
    {
      // A request that failed and will be sent again by itself: "Retrying in 0.5 seconds...", with
      // the next error printed under it while it waits.
      id: 'generic/retrying',
      kind: 'busy',
      pattern: /^Retrying in \d+(?:\.\d+)? seconds?(?:\.{3}|…)?$/,
      within: 6,
    },
    {
      // A panel the person opened, whose footer offers to close it: "←/→ to switch · Esc to
      // close", "(Press Esc to close)", "? / esc close", "↓ to navigate · Esc to go back". Closing is
      // no answer to an approval, so it is a menu (dialogs that ask say "esc to cancel", "esc back"
      // or "reject", or name Enter beside it).
      id: 'generic/closable-panel',
      kind: 'stopped',
      menu: true,
      // "Press enter to confirm or esc to go back" is a dialog's: going back beside Enter is not.
      pattern: /(?:^|[·,(|/]\s*|\s{2,})(?:press )?esc(?:ape)? (?:to )?close\)?$|^(?!.*\benter\b)(?:.*·\s*)?esc to go back$/i,
      within: 3,
    },
    {
      // A panel with tabs, opened by the person: "Tab/Shift+Tab to switch tabs · Esc to cancel",
      // "(↑ to switch tabs)" beside its tab names. An approval has no tabs.
      id: 'generic/tabbed-panel',
      kind: 'stopped',
      menu: true,
      pattern: /(?:^|\(|·\s*)(?:[←→↑↓/]+|(?:Shift\+)?Tab(?:\/Shift\+Tab)?) to switch tabs\b/i,
      within: 20,
    },
    {
      // A list to search in, opened by the person: "↑↓ to navigate · Type to search · Esc to
      // cancel", "Type to search · Enter/Space to change · Esc to cancel"; wrapped on a narrow
      // pane, "… · Type to" over "search · Esc to cancel".
      id: 'generic/search-list',
      kind: 'stopped',
      menu: true,
      pattern: /\bType to search\b.*\bEsc to (?:cancel|close)\b|(?:^|·\s*)search · Esc to (?:cancel|close)\b/i,
      within: 4,
    },
    {
      // A picker's key hints: "enter select · esc back", "enter resume   ^a archive   esc exit".
      // Enter picks from a list and Esc leaves it: the person opened it. A dialog that asks says
      // what Enter does to the question ("enter continue · esc back"); the longer hints ("Enter to
      // select · Esc to go back") are the dialogs' too, so only the terse pairs count.
      id: 'generic/picker-footer',
      kind: 'stopped',
      menu: true,
      pattern: /^enter (?:select|resume|open)(?:\s{2,}|\s*[·|]\s*).*\besc (?:back|exit|close)\b/i,
      within: 3,
    },
    {
      id: 'generic/yes-no',
      kind: 'permission',
      where: 'last-line',
      // Also conda's "([y]/n)?" and dpkg's "(Y/I/N/O/D/Z) [default=N] ?".
      pattern:
        /[[(]\s*(?:\[?y(?:es)?\]?\s*\/\s*\[?n(?:o)?\]?|\[?n(?:o)?\]?\s*\/\s*\[?y(?:es)?\]?)(?:\s*\/\s*[^\])/]+)*\s*[\])]\s*[:?]?$|\(Y(?:\/[A-Z])+\) \[default=[A-Z]\] \?$|\byes \(y\)\s*\/\s*no \(n\)$|(?:\?\s*|^)\(y\)\s*\(enter\)$|^\[y\/n\]\s.*\?$|\[\(y\)es, \(n\)o\]:?$/i,
    },
    {
      // Questions whose answers are words with their key in brackets: "Run shell command?
      // (Y)es/(N)o/(D)on't ask again [Yes]:", "Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all [Yes]:".
      id: 'generic/bracketed-keys',
      kind: 'permission',
      where: 'last-line',
      pattern: /\([A-Z]\)[a-z']+(?:\s[a-z']+)*(?:\s*\/\s*\([A-Z]\)[a-z' ]+)+\s*(?:\[[^\]]*\])?\s*[:?]?$/,
    },
    {
      // The same question wrapped on a narrow pane: "… (Y)es/(N)o [Y" over "es]:", or
      // "… (Y)es/(N)o/(D)on't ask" over "again [Yes]:".
      id: 'generic/bracketed-keys-wrapped',
      kind: 'permission',
      where: 'last-line',
      pattern: /^[\w' /()]{0,30}(?:\[[^\]]*)?\]?:$/,
      above: /\([A-Z]\)[a-z']+\s*\/\s*\(?[A-Z]?/,
    },
    {
      // git add -p and friends: "(1/1) Stage this hunk [y,n,q,a,d,e,?]?", and with several hunks
      // "(1/2) Stage this hunk [y,n,q,a,d,j,J,g,/,e,?]?".
      id: 'generic/letter-choices',
      kind: 'permission',
      where: 'last-line',
      pattern: /\[[A-Za-z?/](?:,[A-Za-z?/])+\]\??$/,
      answer: 'line',
    },
    {
      id: 'generic/ssh-host-key',
      kind: 'permission',
      where: 'last-line',
      pattern: /\(yes\/no(?:\/\[fingerprint\])?\)\?$/,
    },
    {
      id: 'generic/ok-to-proceed',
      kind: 'permission',
      where: 'last-line',
      pattern: /\bOk to proceed\? \(y\)$/,
    },
    {
      // A short question on the last line: "Allow?", "Proceed?", "Execute this?", "Apply changes?".
      id: 'generic/question',
      kind: 'permission',
      where: 'last-line',
      pattern: QUESTION,
    },
    {
      // A question over the bare cursor it waits on (`Allow command?` over `│ >`, `Continue?
      // [y/n]` over `>`): a question, not an idle REPL.
      id: 'generic/question-over-cursor',
      kind: 'permission',
      pattern: QUESTION_OVER_CURSOR,
      within: 2,
      below: BARE_CURSOR,
      answer: 'line',
    },
    {
      // A dialog: a question or title, then options with a cursor on one of them (`❯ 1. Yes`,
      // `> Allow this command`, `→ Run (once) (y)`) or plain "Yes, …" / "No, …" lines, then
      // maybe a key hint. An agent's input box under it means the question is old.
      id: 'generic/dialog',
      kind: 'permission',
      pattern: new RegExp(`${QUESTION.source}|${TITLE.source}`, 'i'),
      within: 12,
      below: ANY_OPTION,
      requires: [CURSOR_OPTION, OTHER_OPTION],
      notBelow: INPUT_BOX_EDGE,
      answer: 'key',
    },
    {
      // The same without a cursor: "Run bash?" over "Yes, allow once" and "No, …".
      id: 'generic/dialog-plain',
      kind: 'permission',
      pattern: new RegExp(`${QUESTION.source}|${TITLE.source}`, 'i'),
      within: 8,
      below: /^(?:Yes|Allow)\b/,
      requires: [/^(?:No|Deny|Reject)\b/],
      notBelow: INPUT_BOX_EDGE,
      answer: 'key',
    },
    {
      // A dialog's choices drawn side by side on one line: "Allow once   Allow always   Reject".
      id: 'generic/inline-choices',
      kind: 'permission',
      pattern: /^(?:[→›❯>]\s*)?(?:Allow|Approve|Accept|Yes)\b[^.]{0,30}?\s{2,}(?:.{0,40}\s{2,})?(?:Reject|Deny|Decline|No)\b/,
      within: 6,
      answer: 'key',
    },
    {
      // A dialog that says which key approves: "Press Enter to allow, Esc to deny" under
      // "△ Permission required".
      id: 'generic/enter-to-allow',
      kind: 'permission',
      pattern: /^press enter to (?:allow|approve|accept|confirm)\b/i,
      within: 3,
      answer: 'key',
    },
    {
      // A status line that says it waits for the person: "awaiting user approval.".
      id: 'generic/awaiting-approval',
      kind: 'permission',
      pattern: /^(?:awaiting|waiting for) (?:user|your) (?:approval|confirmation)\b/i,
      within: 3,
    },
    {
      id: 'generic/secret',
      kind: 'permission',
      where: 'last-line',
      pattern:
        /(?:\bpassword|\bpassphrase|\bpasscode|\bPIN\b|\bverification code|\bone-time (?:password|code)|\bOTP\b|\b2FA code)\b.{0,100}:$|^(?:Password|Passphrase|PIN)\s*:$|^Enter your .{0,40}\bAPI key:$/i,
      answer: 'secret',
    },
    {
      // Credentials asked for by name: "Username for 'https://github.com':", docker's "Username:".
      id: 'generic/username',
      kind: 'permission',
      where: 'last-line',
      pattern: /^(?:Username|User name|Login)(?: for '[^']*')?:$/i,
    },
    {
      // terraform apply: "Only 'yes' will be accepted to approve." above "Enter a value:".
      id: 'generic/terraform-approve',
      kind: 'permission',
      where: 'last-line',
      pattern: /^Enter a value:$/,
      requires: [/Only 'yes' will be accepted/],
      options: ['yes'],
    },
    {
      id: 'generic/confirm-file-operation',
      kind: 'permission',
      where: 'last-line',
      pattern: /^(?:rm|cp|mv|ln): .+\?$/,
      options: ['y', 'n'],
    },
    {
      // A numbered menu with a cursor on one entry, drawn near the bottom: "❯ 1. Yes", "› 1. Trust and
      // continue", "● 2. Use Gemini API Key". It needs entries 1 and 2, so a lone "› 1. do X" draft
      // in an agent's input is not a menu. Agents' own rules name the question; this one catches
      // the dialogs they do not know (first-run screens, new dialogs).
      id: 'generic/numbered-menu',
      kind: 'permission',
      pattern: /^(?:[❯›●▶►→]|>)\s*\d{1,2}[.)]\s+\S/,
      within: 10,
      requires: [/^(?:(?:[❯›●▶►→]|>)\s*)?1[.)]\s+\S/, /^(?:(?:[❯›●▶►→]|>)\s*)?2[.)]\s+\S/],
      // An agent's answer can be a numbered list on a `●` bullet; its input box, a rule above and
      // below, is drawn under it, while a dialog is the lowest thing on the screen.
      notBelow: /^─{10,}$/,
      answer: 'key',
    },
    {
      // A list of numbered or lettered options (`1. Yes` … `4. No, with feedback`, `a) Accept`,
      // `b) Reject`) with no cursor drawn on them, above a hint that says how to move and choose:
      // "↑↓ navigate • Enter select • Esc cancel", "use arrow keys, then Enter to choose".
      id: 'generic/option-list',
      kind: 'permission',
      pattern: OPTION_LIST_HINT,
      within: 3,
      requires: [OPTION_FIRST, OPTION_SECOND],
      answer: 'key',
    },
    {
      // The key hints under a dialog or picker: "Enter to select · ↑/↓ to navigate · Esc to cancel",
      // "Press enter to confirm or esc to cancel", "Confirm with Y Enter", "↑↓ navigate  Enter
      // select  ESC reject", "↑↓ select  enter submit  esc dismiss", "(Use Enter to select)".
      id: 'generic/menu-footer',
      kind: 'permission',
      pattern: DIALOG_HINT,
      within: 4,
      answer: 'key',
    },
    {
      // A sign-in that continues in the browser: "Press return to open your browser".
      id: 'generic/browser-login',
      kind: 'permission',
      pattern: /^Press (?:return|enter) to open (?:your|the) browser\b/i,
      within: 2,
      answer: 'key',
      options: ['Enter'],
    },
    {
      // A key asked for in a dialog: "Please enter your Gemini API key." over "(Press Enter to submit, …)".
      id: 'generic/api-key',
      kind: 'permission',
      pattern: /\b(?:enter|paste) your .{0,40}\bAPI key\b/i,
      requires: [/\bPress Enter to submit\b/i],
      answer: 'secret',
    },
    {
      id: 'generic/choice-menu',
      kind: 'permission',
      pattern: /\((?:Use arrow keys|use arrow keys)[^)]*\)$|\[Use arrows to move[^\]]*\]$/,
      within: 12,
    },
    {
      // git's interactive menus (add -i, clean -i): "*** Commands ***" above "What now>".
      id: 'generic/git-what-now',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^What now>$/,
      requires: [/^\*\*\* Commands \*\*\*$/],
      answer: 'line',
    },
    {
      // A cursor line drawn tight inside two horizontal rules near the bottom (`❯`, `> draft`):
      // an agent's input box, by its shape alone, so only when the box's bottom edge is right under
      // the line and no other prompt line is drawn below the box. A message echoed between two
      // rules in a transcript (aider prints a rule before each prompt) has its reply under it.
      id: 'generic/input-box',
      kind: 'stopped',
      pattern: /^[>❯›](?:\s.*)?$/,
      above: /^[╭─]─{9,}/,
      next: /^[╰─]─{9,}/,
      notBelow: /^[>❯›](?:\s|$)/,
      within: 5,
    },
    {
      // An agent's input line right under the end of its last turn: the turn's summary ("Worked
      // for 12s") or the notice that stopped it ("■ Conversation interrupted"). A reply still
      // streaming has its text there instead, and a message just sent has the reply under it.
      id: 'generic/input-after-turn',
      kind: 'stopped',
      pattern: INPUT_LINE,
      above: TURN_OVER,
      aboveSkips: WRAPPED_TAIL,
      within: 4,
      notBelow: /^[>❯›](?:\s|$)|^[⏺●•]\s/,
    },
    {
      // An agent's input line right under its banner, its footer of key hints below: nothing has
      // been asked yet. A reply streaming above the input would show its text there.
      id: 'generic/input-under-banner',
      kind: 'stopped',
      pattern: INPUT_LINE,
      above: BANNER_END,
      below: INPUT_FOOTER_HINT,
      within: 4,
    },
    {
      // An input's footer that names the key sending the message: "⏎ send   Ctrl+J newline".
      id: 'generic/send-hint',
      kind: 'stopped',
      pattern: /^(?:⏎|↵|enter) (?:to )?send\b/i,
      within: 2,
    },
    {
      // An input box drawn with no prompt glyph, known by the footer right under its bottom edge:
      // "ctrl+p commands" under `╹▀▀▀▀`. While the agent works the same footer says so ("esc
      // interrupt"), and that busy line vetoes this. A box with a glyph (`❯`) is the input-line
      // rules' to read.
      id: 'generic/input-box-footer',
      kind: 'stopped',
      pattern: INPUT_BOX_BOTTOM,
      next: INPUT_FOOTER_HINT,
      notAbove: INPUT_LINE,
      within: 6,
    },
    {
      // An agent's input line over its footer of key hints: a draft over "ctrl+p commands" or
      // "shift+tab to cycle". The footer names keys a person presses at an input; a transcript's
      // echoed message has the reply under it instead. ("? for shortcuts" is not enough: Codex
      // shows it under its composer while a reply streams in with no status line.)
      id: 'generic/input-over-footer',
      kind: 'stopped',
      pattern: /^[>❯›](?:\s.*)?$/,
      within: 4,
      below: /\bctrl\+p commands\b|· \/ commands\b|\bshift\+tab to (?:cycle|accept)\b/i,
      notBelow: /^[>❯›](?:\s|$)/,
    },
    {
      // An agent's input line right under its mode line: "Shift+Tab to accept edits" over "> draft".
      id: 'generic/input-under-mode-hint',
      kind: 'stopped',
      pattern: /^[>❯›](?:\s.*)?$/,
      above: /\bshift\+tab to (?:cycle|accept)\b/i,
      within: 4,
      notBelow: /^[>❯›](?:\s|$)/,
    },
    {
      // An editor with a draft and no prompt glyph: the text drawn tight between two full-width
      // rules, the lower one near the bottom with the editor's footer under it.
      id: 'generic/editor-draft',
      kind: 'stopped',
      pattern: /\S/,
      above: /^─{20,}$/,
      next: /^─{20,}$/,
      below: /^(?!─)\S/,
      within: 4,
    },
    {
      // An input box with nothing typed: its two edges with nothing between them, near the bottom.
      id: 'generic/empty-input-box',
      kind: 'stopped',
      pattern: /^─{10,}$/,
      above: /^─{10,}$/,
      within: 4,
    },
    {
      // Other agents' idle prompts: `codex>`, `gemini>`, `droid>`, `copilot>`, hermes' `⚡`, and a
      // bare `›` (no shell or REPL draws one alone).
      id: 'generic/agent-prompt',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:codex|gemini|droid|copilot|pi|qwen|opencode|cline|amp|kilo|auggie|cursor|goose|crush|kimi)>$|^[⚡›]$/,
    },
    {
      // A one-word prompt, bare, right under a horizontal rule on the last line: an agent that
      // draws a rule before each prompt (aider's `diff>`, `ask>`). With text after it, it could
      // be a command sent and still running silently, so only bare.
      // A bare `>` there is the same prompt without a mode; the files in the chat may be listed
      // between the rule and the prompt ("src/router.ts" over "ask multi>").
      id: 'generic/word-prompt-under-rule',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:[a-z][\w-]{0,20}(?: multi)?)?>$/,
      above: /^─{10,}$/,
      aboveSkips: FILE_LIST,
    },
    {
      // A draft at such a prompt ("diff> fix the pager"), or the next line of a draft of several
      // lines, each with the prompt before it. A command that runs a program ("diff> /run make",
      // "diff> !make") stays on the last line as typed while it runs silently, so not those.
      id: 'generic/word-prompt-draft',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[a-z][\w-]{0,20}(?: multi)?> \S/,
      unless: /^[\w -]+> (?:\/|!)/,
      above: /^─{10,}$|^[a-z][\w-]{0,20}(?: multi)?> \S/,
      aboveSkips: FILE_LIST,
    },
    {
      // An agent's empty input and its placeholder or ready line: "Ask anything", "Type your
      // message", "Cline is ready for your message...", a "● Ready" footer, "How can I help today?".
      id: 'generic/agent-ready',
      kind: 'stopped',
      pattern:
        /^(?:[>❯›]\s+)?(?:Ask anything|Type your message)\b|\bready for your message\b|(?:^|\s)● Ready(?:\s|─|$)|^How can I help(?: you)? today\?$|^press enter to send the message\b/i,
      within: 4,
      raw: false,
    },
    {
      // A question with its default answer: "Key name [release-2025]:", cookiecutter's
      // "[2/3] project_slug (ledger):" ("Traceback (most recent call last):" has the same shape as
      // the latter but no step number).
      id: 'generic/question-with-default',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[A-Za-z][\w .'/-]{0,40} \[[^\]]*\]:$|^\[\d+\/\d+\] [\w-]+ \([^()]*\):$/,
    },
    {
      // npm init's "version: (1.0.0)"; log lines such as "Name: (unset)" look the same, so only under
      // npm init's banner.
      id: 'generic/npm-init',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^[a-z][\w .-]{0,30}: \([^()]*\)$/,
      requires: [
        /^(?:This utility will walk you through creating a package\.json file\.|Press \^C at any time to quit\.)$/,
      ],
    },
    {
      id: 'generic/press-to-continue',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?:press|hit) (?:any key|enter|return|<enter>)\b.*\bto (?:continue|proceed|resume)\b/i,
      answer: 'key',
      options: ['Enter'],
    },
    {
      id: 'generic/pager',
      kind: 'stopped',
      where: 'last-line',
      // more, less (`:` and `(END)`), man.
      pattern: /^--\s?More\s?--(?:\s?\(\d+%\))?$|^\(END\)$|^:$|^Manual page .+\(press h for help or q to quit\)$/,
      answer: 'key',
      options: ['q'],
    },
    {
      // less on its first page shows the file's name where it later shows `:`. A log can end in a
      // file name too, so only on an alternate screen, where a pager draws and plain output does not.
      id: 'generic/pager-file-name',
      kind: 'stopped',
      where: 'last-line',
      pattern: /^(?=[^ ]*[./])(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)*[\w@+-][\w.@+-]*(?: \(file \d+ of \d+\))?$/,
      alternateScreen: true,
      answer: 'key',
      options: ['q'],
    },
  ],
};

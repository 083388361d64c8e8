// Turns the screen cases in other tmux agent managers' detector tests into corral's own data:
// test/fixtures/peer-cases/<peer>.json, one entry per case (the screen's lines, the state the peer
// expects, the corral verdicts that agree with it, and a short reference to the peer's test).
// Only the screen strings and the expected states are kept; nothing of the peers' code or prose.
//
//   node scripts/agents/peer-cases.mjs --ccmanager <git-dir> --agent-of-empires <git-dir> --agent-deck <git-dir>
//
// Each <git-dir> is a clone (bare is fine); files are read with `git show HEAD:<path>`. A case the
// extractor cannot read as a fixed screen and one fixed expectation (a loop over generated
// strings, an expectation that depends on the previous state) is counted as skipped, not guessed.

import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const PEER_CASES_DIR = fileURLToPath(new URL('../../test/fixtures/peer-cases/', import.meta.url));

/**
 * The corral verdict kinds that agree with a peer's expectation. A peer's "idle" agent rests at its
 * input (corral: stopped) or shows nothing to act on (none); its "waiting" is a dialog or, for some
 * peers, any input prompt; a boolean "has a prompt" or "is busy" check agrees with every kind on
 * its side of the line.
 */
export const AGREES = {
  busy: ['busy'],
  idle: ['stopped', 'none'],
  waiting: ['permission'],
  'waiting-or-idle-prompt': ['permission', 'stopped'],
  prompt: ['permission', 'stopped'],
  'no-prompt': ['busy', 'none'],
  'not-busy': ['permission', 'stopped', 'none'],
};

const git = (dir, path) =>
  execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
const gitList = (dir, under) =>
  execFileSync('git', ['--git-dir', dir, 'ls-tree', '-r', '--name-only', 'HEAD', under], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

const linesOf = (text) => text.replace(/\r/g, '').split('\n');

// ---------------------------------------------------------------------------------------------
// ccmanager: vitest files, parsed with the TypeScript compiler.

const CCM_STATES = { busy: 'busy', idle: 'idle', waiting_input: 'waiting' };

function stringValue(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = stringValue(node.left);
    const right = stringValue(node.right);
    return left === null || right === null ? null : left + right;
  }
  if (ts.isParenthesizedExpression(node)) return stringValue(node.expression);
  return null;
}

function numberOption(objectNode, name) {
  if (!objectNode || !ts.isObjectLiteralExpression(objectNode)) return undefined;
  for (const p of objectNode.properties) {
    if (ts.isPropertyAssignment(p) && p.name.getText() === name && ts.isNumericLiteral(p.initializer))
      return Number(p.initializer.text);
  }
  return undefined;
}

function ccmanagerFile(source, path, tool, out, skipped) {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const describeNames = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      (node.expression.text === 'it' || node.expression.text === 'test')
    ) {
      const name = node.arguments[0] && stringValue(node.arguments[0]);
      if (name !== null && name !== undefined) caseOf(node, name);
      return;
    }
    ts.forEachChild(node, visit);
  };
  const caseOf = (node, name) => {
    const terminals = [];
    const expectations = [];
    let loops = 0;
    const walk = (n) => {
      if (ts.isForOfStatement(n) || ts.isForStatement(n) || ts.isForInStatement(n)) loops++;
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'createMockTerminal') {
        const arr = n.arguments[0];
        const lines = arr && ts.isArrayLiteralExpression(arr) ? arr.elements.map(stringValue) : null;
        terminals.push(lines && lines.every((l) => l !== null) ? { lines, options: n.arguments[1] } : null);
      }
      // expect(x).toBe('busy')
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'toBe') {
        const value = n.arguments[0] && stringValue(n.arguments[0]);
        if (value && value in CCM_STATES) expectations.push(value);
      }
      ts.forEachChild(n, walk);
    };
    walk(node);
    const ref = `ccmanager:${tool}:${JSON.stringify(name)}`;
    if (terminals.length === 0 && expectations.length === 0) return;
    if (
      terminals.length !== 1 ||
      terminals[0] === null ||
      expectations.length !== 1 ||
      loops > 0 ||
      /maintain|keep|preserve|previous|current state/i.test(name)
    ) {
      skipped.push({ ref, why: 'not one fixed screen with one fixed expectation' });
      return;
    }
    if (/\bimmediately\b|\bdebounce/i.test(name)) {
      skipped.push({ ref, why: 'the expectation depends on time (a debounce), not on the screen' });
      return;
    }
    const { lines, options } = terminals[0];
    const baseY = numberOption(options, 'baseY') ?? 0;
    const rows = numberOption(options, 'rows') ?? lines.length;
    const screen = lines.slice(baseY, baseY + rows).flatMap(linesOf);
    const peerState = expectations[0];
    out.push({ ref, tool, peerState, expect: CCM_STATES[peerState], lines: screen });
  };
  void describeNames;
  visit(file);
}

function ccmanager(dir) {
  const out = [];
  const skipped = [];
  for (const path of gitList(dir, 'src/services/stateDetector').filter((p) => p.endsWith('.test.ts'))) {
    const tool = path.replace(/^.*\//, '').replace(/\.test\.ts$/, '');
    ccmanagerFile(git(dir, path), path, tool, out, skipped);
  }
  return { out, skipped };
}

// ---------------------------------------------------------------------------------------------
// A small tokenizer for Rust and Go sources: strings (with their escapes resolved), identifiers,
// numbers and single punctuation characters. Comments are dropped.

function tokenize(src, lang) {
  const tokens = [];
  let i = 0;
  const n = src.length;
  const isIdentStart = (c) => /[A-Za-z_]/.test(c);
  const isIdent = (c) => /[A-Za-z0-9_]/.test(c);
  while (i < n) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // Rust raw strings r"..." / r#"..."#
    if (
      lang === 'rust' &&
      c === 'r' &&
      (src[i + 1] === '"' || (src[i + 1] === '#' && /^#+"/.test(src.slice(i + 1, i + 10))))
    ) {
      let j = i + 1;
      let hashes = 0;
      while (src[j] === '#') {
        hashes++;
        j++;
      }
      const close = '"' + '#'.repeat(hashes);
      const end = src.indexOf(close, j + 1);
      tokens.push({ t: 'str', v: src.slice(j + 1, end) });
      i = end + close.length;
      continue;
    }
    if (lang === 'rust' && c === 'b' && src[i + 1] === '"') {
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let v = '';
      while (j < n && src[j] !== '"') {
        if (src[j] === '\\') {
          const e = src[j + 1];
          if (e === 'n') v += '\n';
          else if (e === 't') v += '\t';
          else if (e === 'r') v += '\r';
          else if (e === '0') v += '\0';
          else if (e === '\\' || e === '"' || e === "'") v += e;
          else if (e === 'x') {
            v += String.fromCharCode(parseInt(src.slice(j + 2, j + 4), 16));
            j += 2;
          } else if (e === 'u' && src[j + 2] === '{') {
            const end = src.indexOf('}', j);
            v += String.fromCodePoint(parseInt(src.slice(j + 3, end), 16));
            j = end - 1;
          } else if (e === 'u') {
            v += String.fromCharCode(parseInt(src.slice(j + 2, j + 6), 16));
            j += 4;
          } else if (e === '\n' && lang === 'rust') {
            // A line continuation: the newline and the next line's leading whitespace vanish.
            j += 2;
            while (j < n && /\s/.test(src[j])) j++;
            continue;
          } else v += e;
          j += 2;
          continue;
        }
        v += src[j];
        j++;
      }
      tokens.push({ t: 'str', v });
      i = j + 1;
      continue;
    }
    if (lang === 'go' && c === '`') {
      const end = src.indexOf('`', i + 1);
      tokens.push({ t: 'str', v: src.slice(i + 1, end).replace(/\r/g, '') });
      i = end + 1;
      continue;
    }
    if (c === "'") {
      // Rust lifetimes and chars, Go runes: skip a short literal.
      const m = /^'(?:\\.|[^'\\])'/u.exec(src.slice(i, i + 12));
      if (m) {
        tokens.push({ t: 'char', v: m[0] });
        i += m[0].length;
        continue;
      }
      tokens.push({ t: 'p', v: c });
      i++;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdent(src[j])) j++;
      tokens.push({ t: 'id', v: src.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(src[j])) j++;
      tokens.push({ t: 'num', v: src.slice(i, j) });
      i = j;
      continue;
    }
    tokens.push({ t: 'p', v: c });
    i++;
  }
  return tokens;
}

/** The index of the token closing the bracket opened at `open`. */
function closing(tokens, open) {
  const pairs = { '(': ')', '[': ']', '{': '}' };
  const want = pairs[tokens[open].v];
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.t !== 'p') continue;
    if (t.v === tokens[open].v) depth++;
    else if (t.v === want) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return tokens.length - 1;
}

/** Functions named by `namePattern`: [{ name, body: tokens }]. */
function functions(tokens, keyword, namePattern) {
  const out = [];
  for (let i = 0; i < tokens.length - 2; i++) {
    if (
      tokens[i].t === 'id' &&
      tokens[i].v === keyword &&
      tokens[i + 1].t === 'id' &&
      namePattern.test(tokens[i + 1].v)
    ) {
      let j = i + 2;
      while (j < tokens.length && !(tokens[j].t === 'p' && tokens[j].v === '{')) j++;
      const end = closing(tokens, j);
      out.push({ name: tokens[i + 1].v, body: tokens.slice(j + 1, end) });
      i = end;
    }
  }
  return out;
}

/** A string expression: literals and known names joined by `+`, starting at `at`. [value|null, next index]. */
function stringExpr(tokens, at, names) {
  let value = '';
  let i = at;
  for (;;) {
    const t = tokens[i];
    if (!t) return [null, i];
    if (t.t === 'str') value += t.v;
    else if (t.t === 'p' && t.v === '&' && tokens[i + 1]?.t === 'id' && names.has(tokens[i + 1].v)) {
      value += names.get(tokens[i + 1].v);
      i++;
    } else if (
      t.t === 'id' &&
      names.has(t.v) &&
      !(tokens[i + 1]?.t === 'p' && (tokens[i + 1].v === '.' || tokens[i + 1].v === '('))
    )
      value += names.get(t.v);
    else return [null, i];
    i++;
    if (tokens[i]?.t === 'p' && tokens[i].v === '+') {
      i++;
      continue;
    }
    return [value, i];
  }
}

// ---------------------------------------------------------------------------------------------
// agent-of-empires: Rust unit tests (`assert_eq!(detect_<tool>_status(<screen>), Status::<S>)`)
// and the golden fixture folders tests/fixtures/<tool>/<state>/*.txt.

const AOE_STATES = { Running: 'busy', Idle: 'idle', Waiting: 'waiting-or-idle-prompt' };
const AOE_DIR_STATES = { running: 'busy', idle: 'idle', waiting_permission: 'waiting', waiting_question: 'waiting' };

const isP = (t, v) => t?.t === 'p' && t.v === v;
const isId = (t, v) => t?.t === 'id' && t.v === v;

function agentOfEmpiresRust(source, path, out, skipped) {
  const tokens = tokenize(source, 'rust');
  for (const fn of functions(tokens, 'fn', /^test_/)) {
    const body = fn.body;
    const names = new Map();
    const loops = new Map();
    let found = 0;
    for (let i = 0; i < body.length; i++) {
      // let name = "…";
      if (isId(body[i], 'let') && body[i + 1]?.t === 'id' && isP(body[i + 2], '=')) {
        const [value, next] = stringExpr(body, i + 3, names);
        if (value !== null && isP(body[next], ';')) names.set(body[i + 1].v, value);
      }
      // for name in [ "…", "…" ] {
      if (isId(body[i], 'for') && body[i + 1]?.t === 'id' && isId(body[i + 2], 'in') && isP(body[i + 3], '[')) {
        const end = closing(body, i + 3);
        const values = body
          .slice(i + 4, end)
          .filter((t) => t.t === 'str')
          .map((t) => t.v);
        const commas = body.slice(i + 4, end).filter((t) => isP(t, ',')).length;
        if (values.length > 0 && values.length >= commas) loops.set(body[i + 1].v, values);
      }
      if (!(isId(body[i], 'assert_eq') && isP(body[i + 1], '!') && isP(body[i + 2], '('))) continue;
      const end = closing(body, i + 2);
      const args = body.slice(i + 3, end);
      // detect_<tool>_status(X) or detect_status_from_content(X, "tool"), then `, Status::S`
      let tool = null;
      let argStart = -1;
      const m = args[0]?.t === 'id' ? /^detect_(\w+)_status$/.exec(args[0].v) : null;
      if (m && isP(args[1], '(')) {
        tool = m[1];
        argStart = 2;
      } else if (isId(args[0], 'detect_status_from_content') && isP(args[1], '(')) {
        argStart = 2;
      }
      if (argStart < 0) continue;
      const callEnd = closing(args, 1);
      const callArgs = args.slice(argStart, callEnd);
      if (tool === null) {
        const last = callArgs[callArgs.length - 1];
        if (last?.t !== 'str') continue;
        tool = last.v;
      }
      const status =
        args[callEnd + 1] && isP(args[callEnd + 1], ',') && isId(args[callEnd + 2], 'Status')
          ? args[callEnd + 5]?.v
          : undefined;
      const ref = `agent-of-empires:${tool}:${fn.name}`;
      if (!status || !(status in AOE_STATES)) {
        skipped.push({ ref, why: `expects ${status ?? 'something else'}` });
        continue;
      }
      let screens = null;
      const first = callArgs[0];
      const argName = isP(first, '&') ? callArgs[1]?.v : first?.v;
      if (first?.t === 'id' && loops.has(first.v)) screens = loops.get(first.v);
      else if (argName && names.has(argName)) screens = [names.get(argName)];
      else {
        const [value] = stringExpr(callArgs, 0, names);
        if (value !== null) screens = [value];
      }
      if (!screens) {
        skipped.push({ ref, why: 'the screen is built by code' });
        continue;
      }
      for (const screen of screens) {
        found++;
        out.push({
          ref: screens.length > 1 || found > 1 ? `${ref}#${found}` : ref,
          tool,
          peerState: status,
          expect: AOE_STATES[status],
          lines: linesOf(screen),
        });
      }
    }
    void path;
  }
}

function agentOfEmpires(dir) {
  const out = [];
  const skipped = [];
  agentOfEmpiresRust(git(dir, 'src/tmux/status_detection.rs'), 'src/tmux/status_detection.rs', out, skipped);
  for (const path of gitList(dir, 'tests/fixtures').filter((p) => p.endsWith('.txt'))) {
    const [, , tool, state, name] = path.split('/');
    if (!(state in AOE_DIR_STATES)) continue;
    const text = git(dir, path)
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n');
    out.push({
      ref: `agent-of-empires:${tool}:fixtures/${state}/${name}`,
      tool,
      peerState: state,
      expect: AOE_DIR_STATES[state],
      lines: linesOf(text),
    });
  }
  return { out, skipped };
}

// ---------------------------------------------------------------------------------------------
// agent-deck: Go tests in internal/tmux. Table tests whose rows carry a screen and a boolean, run
// through a prompt detector (`HasPrompt`) or the busy check (`hasBusyIndicator`), and direct
// `if !d.HasPrompt(x)` checks.

const BOOL_FIELDS = /^(?:expected|expect|want|wantBusy|wantPrompt|expectWaiting|expectBusy|busy|isBusy)$/;

/** The tool a table is run for: the detector made last before `at`, else the first one after it. */
function goToolOf(body, at = 0) {
  for (let i = Math.min(at, body.length) - 1; i >= 0; i--) {
    if (isId(body[i], 'NewPromptDetector') && isP(body[i + 1], '(') && body[i + 2]?.t === 'str') return body[i + 2].v;
  }
  for (let i = at; i < body.length - 3; i++) {
    if (isId(body[i], 'NewPromptDetector') && isP(body[i + 1], '(') && body[i + 2]?.t === 'str') return body[i + 2].v;
    if (isId(body[i], 'Command') && isP(body[i + 1], '=') && body[i + 2]?.t === 'str') return body[i + 2].v;
  }
  return null;
}

function goChecks(body) {
  const kinds = new Set();
  for (const t of body) {
    if (isId(t, 'HasPrompt')) kinds.add('prompt');
    if (isId(t, 'hasBusyIndicator')) kinds.add('busy');
  }
  return kinds;
}

function agentDeckFile(source, path, out, skipped, fileNames) {
  const tokens = tokenize(source, 'go');
  for (const fn of functions(tokens, 'func', /^Test/)) {
    const body = fn.body;
    const tool = goToolOf(body);
    const kinds = goChecks(body);
    if (kinds.size !== 1 || !tool) continue;
    const kind = [...kinds][0];
    const names = new Map(fileNames);
    let count = 0;
    let tableTool = tool;
    const push = (screen, value, hint) => {
      const tool = tableTool;
      count++;
      const ref = `agent-deck:${tool}:${fn.name}${hint ? `/${JSON.stringify(hint)}` : `#${count}`}`;
      const expect = kind === 'prompt' ? (value ? 'prompt' : 'no-prompt') : value ? 'busy' : 'not-busy';
      out.push({
        ref,
        tool,
        peerState: `${kind === 'prompt' ? 'HasPrompt' : 'busy'}=${value}`,
        expect,
        lines: linesOf(screen),
      });
    };
    for (let i = 0; i < body.length; i++) {
      // name := "…" (with + joins)
      if (body[i]?.t === 'id' && isP(body[i + 1], ':') && isP(body[i + 2], '=')) {
        const [value] = stringExpr(body, i + 3, names);
        if (value !== null) names.set(body[i].v, value);
      }
      // []struct{ … }{ rows }
      if (isP(body[i], '[') && isP(body[i + 1], ']') && isId(body[i + 2], 'struct') && isP(body[i + 3], '{')) {
        tableTool = goToolOf(body, i) ?? tool;
        const fieldsEnd = closing(body, i + 3);
        const fields = [];
        for (let j = i + 4; j < fieldsEnd; j++)
          if (
            body[j].t === 'id' &&
            body[j + 1]?.t === 'id' &&
            (j === i + 4 || isP(body[j - 1], ';') || body[j - 1].t !== 'id')
          )
            fields.push(body[j].v);
        if (!isP(body[fieldsEnd + 1], '{')) continue;
        const tableEnd = closing(body, fieldsEnd + 1);
        // Rows without a boolean: the loop's own check says what all of them must give.
        let rowDefault = null;
        for (let j = tableEnd; j < body.length - 6; j++) {
          if (!isId(body[j], 'if')) continue;
          const negated = isP(body[j + 1], '!');
          const at = negated ? j + 2 : j + 1;
          if (
            isP(body[at + 1], '.') &&
            isId(body[at + 2], kind === 'prompt' ? 'HasPrompt' : 'hasBusyIndicator') &&
            isP(body[at + 3], '(') &&
            isP(body[at + 5], '.')
          ) {
            rowDefault = negated;
            break;
          }
        }
        for (let j = fieldsEnd + 2; j < tableEnd; j++) {
          if (!isP(body[j], '{')) continue;
          const rowEnd = closing(body, j);
          const row = body.slice(j + 1, rowEnd);
          j = rowEnd;
          const keyed = row[0]?.t === 'id' && isP(row[1], ':');
          let screen = null;
          let value = null;
          let label = null;
          if (keyed) {
            for (let k = 0; k < row.length; k++) {
              if (!(row[k].t === 'id' && isP(row[k + 1], ':'))) continue;
              const key = row[k].v;
              if (key === 'content' || key === 'input' || key === 'output') [screen] = stringExpr(row, k + 2, names);
              else if (key === 'name' && row[k + 2]?.t === 'str') label = row[k + 2].v;
              else if (BOOL_FIELDS.test(key) && (isId(row[k + 2], 'true') || isId(row[k + 2], 'false')))
                value = row[k + 2].v === 'true';
            }
          } else {
            const strs = row.filter((t) => t.t === 'str');
            const bools = row.filter((t) => isId(t, 'true') || isId(t, 'false'));
            const contentAt = fields.indexOf('content');
            if (bools.length === 1 && strs.length === 1) [screen, value] = [strs[0].v, bools[0].v === 'true'];
            else if (
              bools.length === 1 &&
              contentAt >= 0 &&
              strs.length === fields.filter((f) => f !== 'expected' && f !== 'want').length
            ) {
              [screen, value] = [strs[contentAt]?.v ?? null, bools[0].v === 'true'];
              label = strs[fields.indexOf('name')]?.v ?? null;
            }
          }
          if (value === null) value = rowDefault;
          if (screen === null || value === null) {
            skipped.push({
              ref: `agent-deck:${tableTool}:${fn.name}`,
              why: 'a row without one screen and one boolean',
            });
            continue;
          }
          push(screen, value, label);
        }
        i = tableEnd;
        continue;
      }
      // if !d.HasPrompt(x) {  /  if d.HasPrompt(x) {
      if (isId(body[i], 'if') && kind === 'prompt') {
        tableTool = goToolOf(body, i) ?? tool;
        const negated = isP(body[i + 1], '!');
        const at = negated ? i + 2 : i + 1;
        if (
          body[at]?.t === 'id' &&
          isP(body[at + 1], '.') &&
          isId(body[at + 2], 'HasPrompt') &&
          isP(body[at + 3], '(')
        ) {
          const end = closing(body, at + 3);
          if (isP(body[at + 5], '.')) continue; // a table row's field: the table is read above
          const [screen, next] = stringExpr(body, at + 4, names);
          if (screen !== null && next === end && isP(body[end + 1], '{')) push(screen, negated, null);
          else skipped.push({ ref: `agent-deck:${tableTool}:${fn.name}`, why: 'the screen is built by code' });
        }
      }
    }
    void path;
  }
}

/** File-level `const name = "…"` / `var name = "…"` strings, shared by a file's tests. */
function goFileNames(source) {
  const tokens = tokenize(source, 'go');
  const names = new Map();
  for (let i = 0; i < tokens.length - 3; i++) {
    if ((isId(tokens[i], 'const') || isId(tokens[i], 'var')) && tokens[i + 1]?.t === 'id' && isP(tokens[i + 2], '=')) {
      const [value] = stringExpr(tokens, i + 3, names);
      if (value !== null) names.set(tokens[i + 1].v, value);
    }
  }
  return names;
}

function agentDeck(dir) {
  const out = [];
  const skipped = [];
  for (const path of gitList(dir, 'internal/tmux').filter((p) => p.endsWith('_test.go'))) {
    const source = git(dir, path);
    if (!/HasPrompt|hasBusyIndicator/.test(source)) continue;
    agentDeckFile(source, path, out, skipped, goFileNames(source));
  }
  return { out, skipped };
}

// ---------------------------------------------------------------------------------------------

const PEERS = { ccmanager, 'agent-of-empires': agentOfEmpires, 'agent-deck': agentDeck };

function main() {
  const args = process.argv.slice(2);
  mkdirSync(PEER_CASES_DIR, { recursive: true });
  for (let i = 0; i < args.length; i += 2) {
    const peer = args[i].replace(/^--/, '');
    const dir = args[i + 1];
    if (!(peer in PEERS) || !dir) throw new Error(`usage: --<${Object.keys(PEERS).join('|')}> <git-dir> ...`);
    const commit = execFileSync('git', ['--git-dir', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const { out, skipped } = PEERS[peer](dir);
    // Two tests can hold the same screen and expectation; keep the first.
    const seen = new Set();
    const cases = out.filter((c) => {
      const key = `${c.tool}\u0000${c.expect}\u0000${c.lines.join('\n')}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const file = join(PEER_CASES_DIR, `${peer}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ peer, commit, cases: cases.map((c) => ({ ...c, agrees: AGREES[c.expect] })), skipped }, null, 1)}\n`,
    );
    process.stdout.write(
      `${peer}: ${cases.length} cases (${out.length - cases.length} duplicates dropped, ${skipped.length} skipped) -> ${file}\n`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

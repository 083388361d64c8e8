// The attach web page: a triage surface for a phone or a desktop. Panes come in the dashboard's
// order with the engine's state words and live quiet timers; a stuck pane is a card with its
// prompt's last lines, quick-answer buttons (only the answers its prompt takes) and a reply box;
// any pane opens in a terminal view (xterm.js from the installed package, loaded on demand): the
// whole screen of a phone, with the pane's answers docked at the bottom; beside the cards on a desk.
// Plain HTML, CSS and one script (written in TypeScript in src/page/, bundled at build time into
// page-script.generated.ts); no CDN, no inline script.

export { PAGE_SCRIPT } from './page-script.generated.js';

/** A tiny corral: three fence posts and two rails. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#161b22"/><g fill="#f0883e"><rect x="6" y="8" width="3" height="17" rx="1"/><rect x="14.5" y="8" width="3" height="17" rx="1"/><rect x="23" y="8" width="3" height="17" rx="1"/><rect x="5" y="12" width="22" height="2.5" rx="1"/><rect x="5" y="19" width="22" height="2.5" rx="1"/></g></svg>`;

export const PAGE_STYLE = `
:root { color-scheme: dark; --bg: #0f1216; --panel: #171b21; --panel-2: #1d232b; --line: #2a313a;
  --text: #e1e6ec; --muted: #8d96a0; --stuck: #f85149; --accent: #f0883e; --ok: #3fb950; --blue: #388bfd; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { margin: 0; background: var(--bg); color: var(--text); }
body { font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; min-height: 100vh; }
body.viewing { overflow: hidden; }
button, input { font: inherit; color: inherit; }
button { min-height: 44px; min-width: 44px; padding: 0 12px; border-radius: 10px; border: 1px solid var(--line);
  background: var(--panel-2); cursor: pointer; touch-action: manipulation; }
button:hover { border-color: #3d4651; }
button:focus-visible, input:focus-visible { outline: 2px solid var(--blue); outline-offset: 1px; }
button:disabled { opacity: 0.5; cursor: default; }
header#top { position: sticky; top: 0; z-index: 5; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 12px;
  padding: 10px 14px; background: var(--bg); border-bottom: 1px solid var(--line); }
header#top h1 { margin: 0; font-size: 17px; display: flex; align-items: center; gap: 8px; }
header#top h1 img { width: 22px; height: 22px; }
#summary { color: var(--muted); font-size: 13px; }
#summary b { color: var(--stuck); }
#link-state { margin-left: auto; font-size: 12px; color: var(--muted); }
#sign-out { min-height: 36px; font-size: 13px; }
#link-state[data-state="live"]::before { content: "\\25CF "; color: var(--ok); }
#notice { margin: 10px 14px; padding: 10px 12px; border-radius: 10px; background: #2d2210; border: 1px solid #6b4a1a; }
main { display: block; padding: 10px; max-width: 1920px; margin: 0 auto; }
#list { display: flex; flex-direction: column; gap: 10px; min-width: 0; }
#empty { color: var(--muted); padding: 20px 6px; }
.pane { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 12px; min-width: 0; }
.pane[data-status="stuck"] { border-color: #7d2a26; box-shadow: inset 4px 0 0 var(--stuck); }
.pane[aria-current="true"] { outline: 2px solid var(--blue); outline-offset: 1px; }
.pane-head { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; min-width: 0; }
.badge { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: #30363d; white-space: nowrap; }
.badge[data-status="stuck"] { background: var(--stuck); color: #fff; }
.badge[data-status="snoozed"] { background: #3d2f12; color: #e3b341; }
.badge[data-status="active"] { background: #12361d; color: #56d364; }
.offline { opacity: 0.5; }
.target { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; }
.quiet { margin-left: auto; font-variant-numeric: tabular-nums; color: var(--muted); font-size: 13px; white-space: nowrap; }
.pane-name { color: var(--muted); font-size: 13px; margin-top: 4px; overflow-wrap: anywhere; }
.reason { margin: 6px 0 0; font-size: 13px; color: #ffa198; }
.prompt { margin: 8px 0 0; padding: 8px 10px; background: #0b0e12; border: 1px solid var(--line); border-radius: 8px;
  font: 12.5px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 20em; overflow-y: auto; }
.last-line { margin: 6px 0 0; font: 12.5px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--muted);
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 2.7em; overflow: hidden; }
.answers { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.answers button { min-width: 56px; min-height: 48px; font-weight: 700; font-size: 17px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  background: #1f2a38; border-color: #2f4a6b; }
.answers button:hover { background: #24344a; }
.reply { display: flex; gap: 8px; margin-top: 10px; min-width: 0; }
.reply input { flex: 1; min-width: 0; min-height: 44px; padding: 0 12px; border-radius: 10px; border: 1px solid var(--line); background: #0b0e12; }
.tools { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
.tools .signal { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; padding: 0 8px; color: #ffa198; }
@media (max-width: 420px) { .pane { padding: 10px; } .tools { gap: 6px; } main { padding: 8px; } }
.result { margin: 8px 0 0; font-size: 13px; color: var(--muted); min-height: 0; }
.result:empty { display: none; }
.result[data-tone="error"] { color: var(--stuck); }
.result[data-tone="ok"] { color: var(--ok); }
.readonly-note { color: var(--muted); font-size: 13px; margin: 8px 0 0; }
#viewer { position: fixed; inset: 0; z-index: 10; background: var(--bg); display: flex; flex-direction: column; min-width: 0; }
.viewer-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; padding: 8px 10px; border-bottom: 1px solid var(--line); }
#viewer-title { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; min-width: 0; }
#viewer-state { color: var(--muted); font-size: 12px; }
#type-label { display: flex; align-items: center; gap: 6px; min-height: 44px; margin-left: auto; }
#type-label input { width: 22px; height: 22px; }
#terminal { flex: 1; min-height: 0; overflow: auto; overscroll-behavior: contain; padding: 6px; }
.term-canvas { width: max-content; }
#dock { padding: 8px 10px calc(8px + env(safe-area-inset-bottom)); border-top: 1px solid var(--line); background: var(--panel); }
#dock:empty, #dock:has(> .dock-card[hidden]) { display: none; }
.dock-card .pane-head, .dock-card .pane-name, .dock-card .reason, .dock-card .prompt, .dock-card .last-line,
.dock-card .tools, .dock-card .readonly-note { display: none; }
.dock-card .answers { margin-top: 0; }
.dock-card .answers:not([hidden]) + .reply { margin-top: 8px; }
.dock-card .reply { margin-top: 0; }
#confirm { position: fixed; inset: 0; z-index: 20; display: flex; align-items: center; justify-content: center; background: rgba(0, 0, 0, 0.6); padding: 16px; }
#confirm .box { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 16px; max-width: 420px; width: 100%; }
#confirm .box p { margin: 0 0 14px; }
#confirm .row { display: flex; gap: 10px; justify-content: flex-end; }
#confirm-ok { background: #5a1d1b; border-color: var(--stuck); }
@media (min-width: 960px) {
  #list { display: grid; grid-template-columns: repeat(auto-fill, minmax(380px, 1fr)); align-items: start; }
  body.viewing main { display: grid; grid-template-columns: minmax(340px, 400px) minmax(0, 1fr); gap: 14px; align-items: start; }
  body.viewing #list { display: flex; align-items: stretch; }
  #viewer { position: sticky; top: 62px; height: calc(100vh - 74px); border: 1px solid var(--line); border-radius: 14px; z-index: 1; overflow: hidden; }
  #dock { padding-bottom: 8px; }
  body.viewing { overflow: auto; }
}
`;

export function pageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="dark">
<title>corral</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/attach-page.css">
</head>
<body>
<header id="top">
  <h1><img src="/favicon.svg" alt="">corral</h1>
  <span id="summary"></span>
  <span id="link-state" data-state="connecting">connecting…</span>
  <button id="sign-out" type="button" hidden>Sign out</button>
</header>
<p id="notice" hidden></p>
<main>
  <section id="list" aria-label="panes"><p id="empty">Waiting for the pane list…</p></section>
  <section id="viewer" hidden aria-label="terminal">
    <div class="viewer-bar">
      <button id="viewer-close" type="button" aria-label="close the terminal">Close</button>
      <span id="viewer-title"></span>
      <span id="viewer-state" data-state="idle"></span>
      <label id="type-label" hidden><input type="checkbox" id="type-toggle"> type into the pane</label>
    </div>
    <div id="terminal"></div>
    <div id="dock" aria-label="answer this pane"></div>
  </section>
</main>
<div id="confirm" role="dialog" aria-modal="true" aria-labelledby="confirm-text" hidden>
  <div class="box">
    <p id="confirm-text"></p>
    <div class="row"><button id="confirm-cancel" type="button">Cancel</button><button id="confirm-ok" type="button">Send</button></div>
  </div>
</div>
<script src="/assets/attach-page.js"></script>
</body>
</html>
`;
}

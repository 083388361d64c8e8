// Attach server over real HTTP, WebSocket and tmux: the seam, reconnects, byte fidelity.
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient, startHarness, waitUntil, type Harness } from '../../helpers/attach-harness.js';
import { GENERATOR, expectContiguous, numberedLines, viewerText } from '../../helpers/stream-text.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

function replayText(client: TestClient): string {
  return (client.of('replay')[0]!.chunks as string[]).join('');
}

describe('attach stream', () => {
  it('joins a numbered-line generator: snapshot + live is contiguous, each line exactly once', async () => {
    h = await startHarness();
    const pane = await h.tmux.spawn(GENERATOR);
    await h.tmux.waitForScreen(pane, (s) => /line \d+/.test(s));
    const client = new TestClient(h.wsUrl(pane));
    await client.opened;
    const hello = await client.message('hello');
    expect(hello.pane).toMatchObject({ id: pane, cols: 100, rows: 30 });
    expect(hello.write).toBe(false);
    client.send({ type: 'subscribe' });
    const replay = await client.message('replay');
    expect(replay.replay_mode).toBe('recovery');
    await client.waitFor(() => numberedLines(client.outputText()).length > 200, 20000, '200 live lines');
    expectContiguous(numberedLines(viewerText(replayText(client), client.outputText())), 200);
    let last = replay.snapshot_offset as number;
    for (const m of client.of('output')) {
      expect(m.offset as number).toBeGreaterThan(last);
      last = m.offset as number;
    }
    client.close();
  });

  it('continues exactly from an arbitrary offset inside the ring', async () => {
    h = await startHarness({ attachRingBytes: 16384 });
    const pane = await h.tmux.spawn(GENERATOR);
    const a = new TestClient(h.wsUrl(pane));
    await a.opened;
    a.send({ type: 'subscribe' });
    await a.waitFor(() => a.of('output').length > 30, 5000, 'output');
    const outputs = a.of('output');
    const k = outputs.length - 3;
    const pick = outputs[k]!;
    const b = new TestClient(h.wsUrl(pane));
    await b.opened;
    b.send({ type: 'subscribe', from_offset: pick.offset });
    const replay = await b.message('replay');
    expect(replay.replay_mode).toBe('catch_up');
    // What A received after the picked offset, and what B received from it, must be the same text.
    const aAfterPick = () =>
      a
        .of('output')
        .slice(k + 1)
        .map((m) => m.data as string)
        .join('');
    const bFromPick = () => replayText(b) + b.outputText();
    await b.waitFor(() => aAfterPick().length > 300 && bFromPick().length > 300, 20000, '300 characters on both');
    const common = Math.min(aAfterPick().length, bFromPick().length);
    expect(bFromPick().slice(0, common)).toBe(aAfterPick().slice(0, common));

    a.close();
    b.close();
  });

  it('after the last viewer left, a reconnect within the grace period gets exactly the missed bytes', async () => {
    h = await startHarness();
    const pane = await h.tmux.spawn("read -r _; for i in $(seq 1 300); do echo away-$i; done; echo END; read -r _");
    const a = new TestClient(h.wsUrl(pane));
    await a.opened;
    a.send({ type: 'subscribe' });
    const left = (await a.message('replay')).snapshot_offset as number;
    a.close();
    await a.waitFor(() => a.closeCode !== null, 5000, 'the close');
    await waitUntil(() => h!.feature.connectionCount === 0, 5000, 'the last viewer to leave');
    // Nobody watches; the pane prints.
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
    await h.tmux.waitForScreen(pane, (s) => s.includes('END'));
    const b = new TestClient(h.wsUrl(pane));
    await b.opened;
    b.send({ type: 'subscribe', from_offset: left });
    const replay = await b.message('replay');
    const lines = Array.from({ length: 300 }, (_, i) => `away-${i + 1}\r\n`).join('');
    const missed = `\r\n${lines}END\r\n`;
    expect(replay.replay_mode).toBe('catch_up');
    expect(replayText(b)).toBe(missed);
    expect(replay.snapshot_offset).toBe(left + Buffer.byteLength(missed));
    b.close();
  });

  it('gives recovery (a repaint) for an offset older than the ring', async () => {
    h = await startHarness({ attachRingBytes: 16384 });
    const pane = await h.tmux.spawn('bash --norc');
    const a = new TestClient(h.wsUrl(pane));
    await a.opened;
    a.send({ type: 'subscribe' });
    await a.message('replay');
    await h.tmux.tmux('send-keys', '-t', pane, 'seq 1 20000', 'Enter');
    await a.waitFor(() => a.of('output').length > 0, 10000, 'first output');
    const early = a.of('output')[0]!.offset as number;
    await a.waitFor(() => (a.of('output').at(-1)!.offset as number) > early + 3 * 16384, 20000, 'ring to wrap');
    const old = new TestClient(h.wsUrl(pane));
    await old.opened;
    old.send({ type: 'subscribe', from_offset: early });
    expect((await old.message('replay')).replay_mode).toBe('recovery');
    a.close();
    old.close();
  });

  it('says "none" when the client missed nothing', async () => {
    h = await startHarness();
    const pane = await h.tmux.spawn('bash --norc');
    const a = new TestClient(h.wsUrl(pane));
    await a.opened;
    a.send({ type: 'subscribe' });
    await a.message('replay');
    await h.tmux.tmux('send-keys', '-t', pane, 'echo done-$((1+1))', 'Enter');
    // The last output is the prompt after the echo: nothing more comes, so the offset is the end.
    await a.waitFor(() => /done-2[\s\S]*\n[^\n]*[#$] $/.test(a.outputText()), 10_000, 'the prompt after the echo');
    const offset = (a.of('output').at(-1) ?? a.of('replay')[0]!).offset ?? a.of('replay')[0]!.snapshot_offset;
    const b = new TestClient(h.wsUrl(pane));
    await b.opened;
    b.send({ type: 'subscribe', from_offset: offset });
    const replay = await b.message('replay');
    expect(replay).toMatchObject({ replay_mode: 'none', chunks: [], snapshot_offset: offset });
    a.close();
    b.close();
  });

  it('round-trips backslashes, escape sequences and UTF-8 split across notifications', async () => {
    h = await startHarness();
    const script = [
      'read -r _',
      "printf 'S>back\\\\slash \\033[1mbold\\033[0m \\342\\202'",
      'sleep 0.3',
      "printf '\\254 euro \\360\\237\\230'",
      'sleep 0.3',
      "printf '\\200 end<E\\n'",
      'sleep 30',
    ].join('; ');
    const pane = await h.tmux.spawn(script);
    const json = new TestClient(h.wsUrl(pane));
    const raw = new TestClient(h.wsUrl(pane, 'mode=raw'));
    await Promise.all([json.opened, raw.opened]);
    json.send({ type: 'subscribe' });
    await json.message('replay');
    await raw.waitFor(() => raw.binary.length > 0, 5000, 'raw repaint');
    await h.tmux.tmux('send-keys', '-t', pane, 'Enter');
    const expected = 'S>back\\slash \x1b[1mbold\x1b[0m € euro 😀 end<E\r\n';
    await json.waitFor(() => json.outputText().includes('end<E'), 5000, 'json end marker');
    await raw.waitFor(() => Buffer.concat(raw.binary).includes('end<E'), 5000, 'raw end marker');
    const text = json.outputText();
    expect(text.slice(text.indexOf('S>'))).toBe(expected);
    expect(text).not.toContain('\ufffd');
    // The split characters arrived in more than one output message.
    expect(json.of('output').length).toBeGreaterThanOrEqual(3);
    const bytes = Buffer.concat(raw.binary.slice(1));
    expect(bytes.subarray(bytes.indexOf('S>')).equals(Buffer.from(expected, 'utf8'))).toBe(true);
    // Raw mode starts with a repaint: reset, clear, screen, cursor.
    expect(raw.binary[0]!.subarray(0, 2).toString()).toBe('\x1bc');
    json.close();
    raw.close();
  });

  it('streams panes of two different sessions at once', async () => {
    h = await startHarness();
    const one = await h.tmux.spawn('bash --norc', { session: 'one' });
    const two = await h.tmux.spawn('bash --norc', { session: 'two' });
    const a = new TestClient(h.wsUrl(one, 'mode=raw'));
    const b = new TestClient(`ws://127.0.0.1:${h.server.port}/attach/%25${two.slice(1)}?mode=raw`);
    await Promise.all([a.opened, b.opened]);
    await a.waitFor(() => a.binary.length > 0);
    await b.waitFor(() => b.binary.length > 0);
    await h.tmux.tmux('send-keys', '-t', one, 'echo first-$((40+2))', 'Enter');
    await h.tmux.tmux('send-keys', '-t', two, 'echo second-$((40+2))', 'Enter');
    await a.waitFor(() => Buffer.concat(a.binary).includes('first-42'), 5000, 'session one');
    await b.waitFor(() => Buffer.concat(b.binary).includes('second-42'), 5000, 'session two');
    expect(Buffer.concat(a.binary).includes('second-42')).toBe(false);
    expect(h.port.streams?.sessionCount).toBe(2);
    a.close();
    b.close();
  });

  it('sends status and closes with 4000 when the pane exits', async () => {
    h = await startHarness();
    await h.tmux.spawn('bash --norc');
    const pane = await h.tmux.spawn('bash --norc');
    const client = new TestClient(h.wsUrl(pane));
    await client.opened;
    client.send({ type: 'subscribe' });
    await client.message('replay');
    await h.tmux.tmux('send-keys', '-t', pane, 'exit', 'Enter');
    await client.waitFor(() => client.closeCode !== null, 5000, 'close');
    expect(client.of('status')[0]).toMatchObject({ type: 'status', status: 'exited' });
    expect(client.closeCode).toBe(4000);
  });

  it('leaves no control client behind when the server stops', async () => {
    h = await startHarness();
    const pane = await h.tmux.spawn('bash --norc');
    const client = new TestClient(h.wsUrl(pane, 'mode=raw'));
    await client.opened;
    await client.waitFor(() => client.binary.length > 0);
    const controlClients = async () =>
      (await h!.tmux.tmux('list-clients', '-F', '#{client_flags}'))
        .split('\n')
        .filter((l) => l.includes('control-mode')).length;
    expect(await controlClients()).toBe(1);
    await h.server.close();
    await client.waitFor(() => client.closeCode !== null, 5000, 'close');
    expect(client.closeCode).toBe(1001);
    // The streams belong to the pane port, which its owner closes after the server.
    await h.port.close();
    await waitUntil(async () => (await controlClients()) === 0, 3000, 'control clients to go');
  });
});

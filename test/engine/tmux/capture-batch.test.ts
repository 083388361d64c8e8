import { describe, expect, it } from 'vitest';
import { captureBatchCommand, parseCaptureBatch } from '../../../src/engine/tmux/capture-batch.js';
import { makeFraming } from '../../../src/engine/tmux/command-line.js';

const framing = makeFraming('abc123');

describe('captureBatchCommand', () => {
  it('chains a marker and a joined capture with history per pane', () => {
    const marker = (id: string) => `<~abc123:${id.slice(1)}~> #{cursor_y} #{pane_height} #{pane_dead} #{alternate_on} #{cursor_x} #{pane_width} #{pid}:#{start_time} #{pane_current_command}`;
    expect(captureBatchCommand(framing, ['%1', '%22'], { history: 2000 })).toEqual([
      ...['display-message', '-p', '-t', '%1', marker('%1'), ';'],
      ...['capture-pane', '-p', '-t', '%1', '-J', '-S', '-2000', ';'],
      ...['display-message', '-p', '-t', '%22', marker('%22'), ';'],
      ...['capture-pane', '-p', '-t', '%22', '-J', '-S', '-2000'],
    ]);
  });

  it("keeps '%' out of display-message text, which tmux passes through strftime", () => {
    // `display -p '<~n:%4~>'` prints '<~n: %4~>' and '%12' comes out padded with spaces.
    const texts = captureBatchCommand(framing, ['%4', '%12'], { history: 0 }).filter((arg) => arg.startsWith(framing.blockStart));
    expect(texts).toEqual(['<~abc123:4~> #{cursor_y} #{pane_height} #{pane_dead} #{alternate_on} #{cursor_x} #{pane_width} #{pid}:#{start_time} #{pane_current_command}', '<~abc123:12~> #{cursor_y} #{pane_height} #{pane_dead} #{alternate_on} #{cursor_x} #{pane_width} #{pid}:#{start_time} #{pane_current_command}']);
  });

  it('asks each pane for its own history when told', () => {
    const args = captureBatchCommand(framing, ['%1', '%2'], { history: 2000, historyByPane: new Map([['%2', 50]]) });
    expect(args.filter((arg) => /^-\d+$/.test(arg))).toEqual(['-2000', '-50']);
  });

  it('refuses anything that is not a pane id', () => {
    expect(() => captureBatchCommand(framing, ['%1; kill-server'], { history: 10 })).toThrow(/not a tmux pane id/);
  });
});

describe('parseCaptureBatch', () => {
  const output = [
    '<~abc123:1~> 2 3 0 0 bash',
    'history line',
    '$ ls',
    'a  b',
    '$',
    '<~abc123:2~> 0 2 1 1 my tool',
    'dead pane',
    '',
    '',
  ].join('\n');

  it('splits the blocks and finds the cursor line counting from the bottom', () => {
    const captures = parseCaptureBatch(output, framing, true);
    expect(captures).toEqual([
      { paneId: '%1', text: 'history line\n$ ls\na  b\n$\n', cursorRow: 3, height: 3, dead: false, alternate: false, command: 'bash' },
      { paneId: '%2', text: 'dead pane\n\n', cursorRow: 0, height: 2, dead: true, alternate: true, command: 'my tool' },
    ]);
  });

  it('reads the cursor column, the width and the server identity where tmux printed them', () => {
    const captures = parseCaptureBatch('<~abc123:0~> 1 2 0 0 6 80 4411:1796285931 read me\n$ ls\nname? \n', framing, true);
    expect(captures).toEqual([
      { paneId: '%0', text: '$ ls\nname? \n', cursorRow: 1, height: 2, dead: false, alternate: false, command: 'read me', cursorX: 6, width: 80, server: '4411:1796285931' },
    ]);
  });

  it('drops the last block when tmux stopped early', () => {
    expect(parseCaptureBatch(output, framing, false).map((c) => c.paneId)).toEqual(['%1']);
  });

  it('is not fooled by a pane that prints a marker without the nonce', () => {
    const forged = '<~abc123:%1~> 1 2 0 0 sh\n<~other:%9~> 0 1 0 0 sh\nx\n';
    expect(parseCaptureBatch(forged, framing, true)).toEqual([
      { paneId: '%1', text: '<~other:%9~> 0 1 0 0 sh\nx\n', cursorRow: 1, height: 2, dead: false, alternate: false, command: 'sh' },
    ]);
  });
});

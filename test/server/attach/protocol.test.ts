import { describe, expect, it } from 'vitest';
import { actionPath } from '../../../src/server/attach/pane-actions.js';
import { paneKeyFromPath, parseClientMessage } from '../../../src/server/attach/protocol.js';

describe('parseClientMessage', () => {
  it('accepts every message type of the protocol', () => {
    expect(parseClientMessage('{"type":"subscribe"}')).toEqual({
      ok: true,
      message: { type: 'subscribe', fromOffset: undefined },
    });
    expect(parseClientMessage('{"type":"subscribe","from_offset":42}')).toEqual({
      ok: true,
      message: { type: 'subscribe', fromOffset: 42 },
    });
    expect(parseClientMessage('{"type":"input","data":"ls\\r"}')).toEqual({
      ok: true,
      message: { type: 'input', data: 'ls\r' },
    });
    expect(parseClientMessage('{"type":"keys","keys":["y","Enter"]}')).toEqual({
      ok: true,
      message: { type: 'keys', keys: ['y', 'Enter'] },
    });
    expect(parseClientMessage('{"type":"resize","cols":80,"rows":24}')).toEqual({
      ok: true,
      message: { type: 'resize', cols: 80, rows: 24 },
    });
    expect(parseClientMessage('{"type":"refresh"}')).toEqual({ ok: true, message: { type: 'refresh' } });
    expect(parseClientMessage('{"type":"ping","id":"a"}')).toEqual({ ok: true, message: { type: 'ping', id: 'a' } });
    expect(parseClientMessage('{"type":"ping"}')).toEqual({ ok: true, message: { type: 'ping', id: null } });
  });

  it('rejects malformed messages with a bad_message error that says what is wrong', () => {
    for (const text of [
      'nope',
      '[]',
      'null',
      '{"type":"launch"}',
      '{"type":"subscribe","from_offset":-1}',
      '{"type":"subscribe","from_offset":1.5}',
      '{"type":"input"}',
      '{"type":"keys","keys":[]}',
      '{"type":"keys","keys":[1]}',
      '{"type":"resize","cols":0,"rows":24}',
      '{"type":"resize","cols":"80","rows":24}',
      '{"type":"ping","id":{}}',
    ]) {
      const parsed = parseClientMessage(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.error.code).toBe('bad_message');
    }
  });
});

describe('paneKeyFromPath', () => {
  it('reads the pane number in its three spellings', () => {
    expect(paneKeyFromPath('/attach/3')).toBe('%3');
    expect(paneKeyFromPath('/attach/%253')).toBe('%3');
    expect(paneKeyFromPath('/attach/%3')).toBe('%3');
    expect(paneKeyFromPath('/attach/12/')).toBe('%12');
  });
  it('puts another host in front', () => {
    expect(paneKeyFromPath('/attach/build-box/3')).toBe('build-box/%3');
    expect(paneKeyFromPath('/attach/vm.1/%253')).toBe('vm.1/%3');
  });
  it('refuses anything else', () => {
    for (const path of [
      '/attach/',
      '/attach/abc',
      '/attach/a/b/3',
      '/attach/local/3',
      '/attach/bad host/3',
      '/attach/-1',
      '/attach/%25%25',
      '/attach/1234567890',
      '/other/3',
    ]) {
      expect(paneKeyFromPath(path), path).toBeNull();
    }
  });
});

describe('actionPath', () => {
  it('names a pane here or on another host', () => {
    expect(actionPath('/api/panes/3/answer')).toEqual({ paneId: '%3', action: 'answer' });
    expect(actionPath('/api/panes/build-box/3/reply')).toEqual({ paneId: 'build-box/%3', action: 'reply' });
    for (const path of ['/api/panes/local/3/keys', '/api/panes/a/b/3/keys', '/api/panes/3/delete', '/api/panes/x/answer']) {
      expect(actionPath(path), path).toBeNull();
    }
  });
});

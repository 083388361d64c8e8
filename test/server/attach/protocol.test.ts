import { describe, expect, it } from 'vitest';
import { paneIdFromPath, parseClientMessage } from '../../../src/server/attach/protocol.js';

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

describe('paneIdFromPath', () => {
  it('reads the pane number in its three spellings', () => {
    expect(paneIdFromPath('/attach/3')).toBe('%3');
    expect(paneIdFromPath('/attach/%253')).toBe('%3');
    expect(paneIdFromPath('/attach/%3')).toBe('%3');
    expect(paneIdFromPath('/attach/12/')).toBe('%12');
  });
  it('refuses anything else', () => {
    for (const path of [
      '/attach/',
      '/attach/abc',
      '/attach/3/4',
      '/attach/-1',
      '/attach/%25%25',
      '/attach/1234567890',
      '/other/3',
    ]) {
      expect(paneIdFromPath(path), path).toBeNull();
    }
  });
});

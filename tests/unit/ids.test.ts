import { describe, expect, it } from 'vitest';
import { parseKvid, parseUid } from '../../src/lib/validation/ids.ts';

describe('KVID', () => {
  it('takes the first run of digits', () => {
    expect(parseKvid('kv123')).toEqual({ ok: true, id: 123 });
    expect(parseKvid('abc12def34')).toEqual({ ok: true, id: 12 });
    expect(parseKvid('kv007')).toEqual({ ok: true, id: 7 });
    expect(parseKvid(' 42 ')).toEqual({ ok: true, id: 42 });
    expect(parseKvid(99)).toEqual({ ok: true, id: 99 });
  });
  it('asks for a KVID when there are no digits', () => {
    expect(parseKvid('kv')).toEqual({ ok: false, code: 'kvidEmpty', message: '请输入 KVID' });
    expect(parseKvid('')).toMatchObject({ message: '请输入 KVID' });
  });
  it('refuses numbers past Number.MAX_SAFE_INTEGER', () => {
    expect(parseKvid(String(Number.MAX_SAFE_INTEGER))).toEqual({ ok: true, id: Number.MAX_SAFE_INTEGER });
    expect(parseKvid('kv9007199254740992')).toMatchObject({ ok: false, code: 'kvidOutOfRange' });
    expect(parseKvid('kv99999999999999999999999')).toMatchObject({ ok: false, code: 'kvidOutOfRange' });
  });
  it('calls anything else invalid', () => {
    expect(parseKvid('kv0')).toEqual({ ok: false, code: 'kvidInvalid', message: '你输入的 KVID 不合法' });
    expect(parseKvid(null)).toMatchObject({ code: 'kvidInvalid' });
    expect(parseKvid({})).toMatchObject({ code: 'kvidInvalid' });
  });
});

describe('UID', () => {
  it('parses whole positive integers', () => {
    expect(parseUid('15')).toEqual({ ok: true, id: 15 });
    expect(parseUid(' +15 ')).toEqual({ ok: true, id: 15 });
    expect(parseUid(15)).toEqual({ ok: true, id: 15 });
  });
  it('calls non-integers 不合法', () => {
    for (const input of ['abc', '1.5', '12abc', '-3', '0', '', 1.5, null]) {
      expect(parseUid(input), String(input)).toEqual({ ok: false, code: 'uidInvalid', message: '不合法' });
    }
  });
  it('refuses numbers too large to represent', () => {
    expect(parseUid('9007199254740993')).toMatchObject({ ok: false, code: 'uidOutOfRange' });
    expect(parseUid(2 ** 60)).toMatchObject({ ok: false, code: 'uidOutOfRange' });
  });
});

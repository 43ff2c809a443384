/**
 * KVID and UID parsing of SPEC §5. The Chinese messages are the spec's exact texts; `code`
 * lets the interface show them in the visitor's language (catalog keys validation.*).
 */
export type IdFailureCode =
  | 'kvidEmpty'
  | 'kvidOutOfRange'
  | 'kvidInvalid'
  | 'kvidNotFound'
  | 'uidInvalid'
  | 'uidOutOfRange'
  | 'userNotFound';

export type IdResult = { ok: true; id: number } | { ok: false; code: IdFailureCode; message: string };

export const ID_MESSAGES: Record<IdFailureCode, string> = {
  kvidEmpty: '请输入 KVID',
  kvidOutOfRange: 'KVID 超出了支持的范围',
  kvidInvalid: '你输入的 KVID 不合法',
  kvidNotFound: '你输入的 KVID 不存在',
  uidInvalid: '不合法',
  uidOutOfRange: 'UID 超出了支持的范围',
  userNotFound: '用户不存在',
};

const fail = (code: IdFailureCode): IdResult => ({ ok: false, code, message: ID_MESSAGES[code] });

/** The first run of digits in the input is the KVID ('kv123', 'av 123?p=2', '123'). */
export function parseKvid(input: unknown): IdResult {
  if (typeof input !== 'string' && typeof input !== 'number') return fail('kvidInvalid');
  const digits = /\d+/.exec(String(input))?.[0];
  if (!digits) return fail('kvidEmpty');
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return fail('kvidOutOfRange');
  if (value <= 0) return fail('kvidInvalid');
  return { ok: true, id: value };
}

/** A UID must be a whole positive integer; anything else is invalid, beyond 2^53-1 out of range. */
export function parseUid(input: unknown): IdResult {
  if (typeof input === 'number') {
    if (!Number.isInteger(input)) return fail('uidInvalid');
    if (!Number.isSafeInteger(input)) return fail('uidOutOfRange');
    return input > 0 ? { ok: true, id: input } : fail('uidInvalid');
  }
  if (typeof input !== 'string') return fail('uidInvalid');
  const text = input.trim();
  if (!/^\+?\d+$/.test(text)) return fail('uidInvalid');
  const value = Number(text);
  if (!Number.isSafeInteger(value)) return fail('uidOutOfRange');
  return value > 0 ? { ok: true, id: value } : fail('uidInvalid');
}

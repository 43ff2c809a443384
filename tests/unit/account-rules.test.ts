import { describe, expect, it } from 'vitest';
import {
  checkName,
  normalizeName,
  checkPassword,
  isValidEmail,
  normalizeEmail,
  INVITATION_CODE_RE,
} from '../../src/lib/validation/account.ts';

describe('usernames and nicknames', () => {
  it('accept the scripts of the site’s audience', () => {
    for (const name of [
      'mikan',
      'Nguyễn Văn An',
      'さくら',
      'サクラー',
      '김하늘',
      '星野',
      '綺羅星_01',
      'a-b',
      'x',
      'ホシノ ルリ',
    ]) {
      expect(checkName(name), name).toBeNull();
    }
  });
  it('trim and NFC-normalise', () => {
    expect(normalizeName('  Nguye\u0302\u0303n  ')).toBe('Nguyễn');
    expect(checkName('  spaced  ')).toBeNull();
  });
  it('refuse empty, long, symbols, emoji and double or outer spaces', () => {
    expect(checkName('   ')).toBe('empty');
    expect(checkName('a'.repeat(21))).toBe('tooLong');
    expect(checkName('星'.repeat(20))).toBeNull();
    for (const bad of ['a  b', 'a!', '<script>', 'name@x', '😀', 'ㄱ', 'a\tb', 'Привет', 'Ω'])
      expect(checkName(bad), bad).toBe('invalidCharacters');
  });
});

describe('passwords and e-mail', () => {
  const common = new Set(['password', '12345678']);
  it('need eight characters and must not be common or personal', () => {
    expect(checkPassword('short', common)).toBe('tooShort');
    expect(checkPassword('PASSWORD', common)).toBe('common');
    expect(checkPassword('mikan-chan', common, ['Mikan-Chan'])).toBe('common');
    expect(checkPassword('x'.repeat(201), common)).toBe('tooLong');
    expect(checkPassword('correct horse battery', common)).toBeNull();
  });
  it('validate and normalise addresses', () => {
    expect(isValidEmail('Mikan@Example.COM')).toBe(true);
    expect(normalizeEmail(' Mikan@Example.COM ')).toBe('Mikan@example.com');
    for (const bad of ['no-at', 'a@b', 'a b@c.de', '<a>@c.de', `${'a'.repeat(250)}@c.de`])
      expect(isValidEmail(bad), bad).toBe(false);
  });
  it('know the invitation code format', () => {
    expect(INVITATION_CODE_RE.test('KIRA-AB12-9XYZ')).toBe(true);
    expect(INVITATION_CODE_RE.test('kira-ab12-9xyz')).toBe(false);
  });
});

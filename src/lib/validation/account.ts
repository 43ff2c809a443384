/**
 * Account field rules (API-NOTES "Users"), shared by the server (enforced) and the forms (shown
 * early). Each check returns a failure code, or null when the value is acceptable.
 */
export const NAME_MAX = 20;
export const PASSWORD_MIN = 8;
/** Argon2 work grows with input length: bound it. */
export const PASSWORD_MAX = 200;
export const EMAIL_MAX = 254;

/** Letters and digits of Latin (incl. Vietnamese), kana with ー, Hangul syllables, CJK ideographs, and - _. */
/** One character of a name (mentions in comments match names with it). */
export const NAME_CHAR = String.raw`[[\p{L}&&\p{Script=Latin}][0-9][\p{L}&&\p{Script=Hiragana}][\p{L}&&\p{Script=Katakana}]ー[\uAC00-\uD7A3][\p{L}&&\p{Script=Han}]_\-]`;
const NAME_RE = new RegExp(`^${NAME_CHAR}+(?: ${NAME_CHAR}+)*$`, 'v');

/** The stored form of a username or nickname: trimmed and NFC-normalised. */
export function normalizeName(value: string): string {
  return value.normalize('NFC').trim();
}

export type NameProblem = 'empty' | 'tooLong' | 'invalidCharacters';
export function checkName(value: string): NameProblem | null {
  const name = normalizeName(value);
  if (!name) return 'empty';
  if ([...name].length > NAME_MAX) return 'tooLong';
  return NAME_RE.test(name) ? null : 'invalidCharacters';
}

export function normalizeEmail(value: string): string {
  const trimmed = value.trim();
  const at = trimmed.lastIndexOf('@');
  return at < 0 ? trimmed : `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}`;
}

export function isValidEmail(value: string): boolean {
  const email = normalizeEmail(value);
  return (
    email.length <= EMAIL_MAX && /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]{2,}$/u.test(email)
  );
}

export type PasswordProblem = 'tooShort' | 'tooLong' | 'common';
/** `common` is a lower-cased set of the most common passwords (the server's list). */
export function checkPassword(
  password: string,
  common: ReadonlySet<string>,
  personal: string[] = [],
): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'tooShort';
  if (length > PASSWORD_MAX) return 'tooLong';
  const lower = password.toLowerCase();
  if (common.has(lower) || personal.some((p) => p && lower === p.toLowerCase())) return 'common';
  return null;
}

/** Invitation codes look like KIRA-ABCD-1234. */
export const INVITATION_CODE_RE = /^KIRA-[A-Z0-9]{4}-[A-Z0-9]{4}$/;
export const VERIFICATION_CODE_RE = /^\d{6}$/;

/**
 * Paths with control characters: no page, file or API call has one in its name, so a path with
 * one (raw, which Node's parser mostly refuses already, or percent-encoded: %00 to %1F, %7F) is
 * answered 400 before anything routes it; it never reaches the database (PostgreSQL refuses NUL
 * in text, which was a 500), the file system or a page.
 */
const RAW_CONTROL = /[\u0000-\u001F\u007F]/;
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;

/** The path of a request URL (before `?`) holds a control character, raw or encoded. */
export function hasControlCharacterInPath(path: string): boolean {
  return RAW_CONTROL.test(path) || ENCODED_CONTROL.test(path);
}

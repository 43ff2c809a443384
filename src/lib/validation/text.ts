/**
 * Control characters in text: none but tab, line feed and carriage return belongs in anything the
 * site stores (PostgreSQL refuses NUL outright), so the API refuses them in bodies and strips them
 * from search terms and other query values.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const CONTROL_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export const hasControlCharacters = (text: string) => CONTROL.test(text);
export const stripControlCharacters = (text: string) => text.replace(CONTROL_ALL, '');

/**
 * Where in a parsed JSON value a string (or a key) holds a control character: a dotted path
 * ('' for the value itself), or null when there is none.
 */
export function controlCharacterPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return hasControlCharacters(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = controlCharacterPath(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (hasControlCharacters(key)) return at;
      const found = controlCharacterPath(item, at);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * Invisible formatting characters: the bidi embeddings, overrides and isolates (U+202A–202E,
 * U+2066–2069) and marks (U+200E, U+200F), the zero-width space, joiners and word joiner
 * (U+200B–200D, U+2060), the invisible operators (U+2061–2064) and the byte-order mark (U+FEFF).
 * In stored text they only serve to mislead: a right-to-left override shows `txt.exe` for
 * `exe.txt` and reverses the rest of the line it is shown in, zero-width characters make two
 * titles that look the same different and slip words past block lists.
 */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');
/** An emoji (with its presentation selector or skin tone) just before a joiner… */
const EMOJI_BEFORE = /\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?$/u;
/** …and one just after it: the joiner makes one emoji of the two (👩‍💻, 🏳️‍🌈). */
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * Text as the site stores and shows it: the invisible formatting characters above removed,
 * except the zero-width joiner inside an emoji sequence (👨‍👩‍👧 is one picture with it and
 * three without). Everything else, visible text in any script, is left as it is.
 */
export function stripInvisibleFormatting(text: string): string {
  if (!INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE_ALL, (ch, offset: number, whole: string) =>
    ch === '\u200D' &&
    EMOJI_BEFORE.test(whole.slice(Math.max(0, offset - 4), offset)) &&
    EMOJI_AFTER.test(whole.slice(offset + 1, offset + 3))
      ? ch
      : '',
  );
}

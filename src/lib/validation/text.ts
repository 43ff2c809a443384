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

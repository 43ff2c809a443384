/**
 * Keyword and regular-expression blocks, matched the same way wherever they apply: the player
 * filters danmaku with them in the browser, the server leaves matching comments out of the
 * viewer's comment list.
 */
import { BLOCK_REGEX_FLAGS } from '../validation/regex-safety.ts';

/** Keywords as they are compared: trimmed, lower-cased, empty ones dropped. */
export const normalizeKeywords = (keywords: readonly string[]): string[] =>
  keywords.map((k) => k.trim().toLowerCase()).filter(Boolean);

/** The expressions compiled with the filters' flags; one that does not compile never matches. */
export function compileBlockRegexes(sources: readonly string[]): RegExp[] {
  return sources.flatMap((source) => {
    try {
      return [new RegExp(source, BLOCK_REGEX_FLAGS)];
    } catch {
      return [];
    }
  });
}

/** Whether the text contains one of the (normalized) keywords, in any letter case. */
export function containsKeyword(text: string, keywords: readonly string[]): boolean {
  if (!keywords.length) return false;
  const lower = text.toLowerCase();
  return keywords.some((k) => lower.includes(k));
}

export const matchesAnyRegex = (text: string, regexes: readonly RegExp[]): boolean => regexes.some((r) => r.test(text));

/**
 * How text is prepared for keyword search, in one place for what is stored and what is asked:
 * NFKC folds full-width Latin and half-width kana (ＡＢＣ → abc, ｱﾆﾒ → アニメ), then lower case.
 */
export function normalizeForSearch(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A LIKE pattern for `text` with its wildcards escaped (LIKE's default escape is the backslash). */
export function likePattern(text: string, kind: 'prefix' | 'contains'): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return kind === 'prefix' ? `${escaped}%` : `%${escaped}%`;
}

/** The search words of a query: at most eight, each matched on its own (all must match). */
export function searchTerms(keyword: string): string[] {
  return [...new Set(normalizeForSearch(keyword).split(' ').filter(Boolean))].slice(0, 8);
}

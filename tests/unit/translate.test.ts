import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../src/lib/i18n/translate.ts';
import { CATALOGS } from '../../src/lib/i18n/catalogs.ts';

function strings(node: unknown, prefix = ''): Array<[string, string]> {
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : strings(value, `${prefix}${key}.`),
  );
}

describe("the islands' translator", () => {
  const { t } = createTranslator('en', { a: { b: 'Page {{page}} of {{ pages }}', plain: 'Hi' } });
  it('looks up dotted keys and interpolates', () => {
    expect(t('a.plain')).toBe('Hi');
    expect(t('a.b', { page: 2, pages: 5 })).toBe('Page 2 of 5');
    expect(t('a.b', { page: 0 })).toBe('Page 0 of ');
  });
  it('shows the key for a missing message, never another language', () => {
    expect(t('a.missing')).toBe('a.missing');
    expect(t('a')).toBe('a');
  });
  it('is enough for every catalog: no plural keys, nesting or formatters', () => {
    for (const [locale, catalog] of Object.entries(CATALOGS)) {
      for (const [key, value] of strings(catalog)) {
        expect(key, `${locale} ${key}`).not.toMatch(/_(zero|one|two|few|many|other)$/);
        expect(value, `${locale} ${key}`).not.toMatch(/\$t\(|\{\{[^}]*,[^}]*\}\}|\{\{-/);
      }
    }
  });
});

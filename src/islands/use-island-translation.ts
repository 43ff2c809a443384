import { useMemo } from 'react';
import { createTranslator, type Messages } from '../lib/i18n/translate.ts';
import type { Locale } from '../lib/i18n/locales.ts';

/** An island's t(): built from the namespaces the page passed as props (only the active locale). */
export function useIslandTranslation(locale: Locale, messages: Messages) {
  return useMemo(() => createTranslator(locale, messages).t, [locale, messages]);
}

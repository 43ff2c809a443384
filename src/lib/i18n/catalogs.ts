// Build- and server-side access to every catalog. Browser code never imports this file:
// islands receive the few namespaces they need as props (see pickNamespaces).
import en from '../../i18n/en.json' with { type: 'json' };
import zhs from '../../i18n/zhs.json' with { type: 'json' };
import zht from '../../i18n/zht.json' with { type: 'json' };
import yue from '../../i18n/yue.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };
import ko from '../../i18n/ko.json' with { type: 'json' };
import vi from '../../i18n/vi.json' with { type: 'json' };
import id from '../../i18n/id.json' with { type: 'json' };
import fr from '../../i18n/fr.json' with { type: 'json' };
import { createTranslator, inContextMessages, type Messages } from './translate.ts';
import type { Locale, CatalogLocale } from './locales.ts';

export const CATALOGS: Record<CatalogLocale, Messages> = { zhs, zht, en, ja, ko, vi, id, fr, yue };

/** The source catalog whose keys the in-context mode (ii) displays. */
export const SOURCE_LOCALE: CatalogLocale = 'en';

const cache = new Map<Locale, ReturnType<typeof createTranslator>>();

export function messagesFor(locale: Locale): Messages {
  return locale === 'ii' ? inContextMessages(CATALOGS[SOURCE_LOCALE]) : CATALOGS[locale];
}

export function translatorFor(locale: Locale) {
  let translator = cache.get(locale);
  if (!translator) {
    translator = createTranslator(locale, messagesFor(locale));
    cache.set(locale, translator);
  }
  return translator;
}

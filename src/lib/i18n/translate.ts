import i18next, { type i18n, type TFunction } from 'i18next';
import type { Locale } from './locales.ts';

export type Messages = Record<string, unknown>;
/** A t() that returns a plain string, as the player's parts take it. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * In-context translation mode (ii) shows each message's key, so a translator's in-context
 * tool can find the string on the page; the keys are never mistaken for a real language.
 */
export function inContextMessages(source: Messages, prefix = ''): Messages {
  return Object.fromEntries(
    Object.entries(source).map(([key, value]) =>
      value && typeof value === 'object'
        ? [key, inContextMessages(value as Messages, `${prefix}${key}.`)]
        : [key, `⟦${prefix}${key}⟧`],
    ),
  );
}

/** One i18next instance for one locale's catalog. No fallback language: a missing key shows the key, never another language. */
export function createTranslator(locale: Locale, messages: Messages): { t: TFunction; i18n: i18n } {
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    resources: { [locale]: { translation: messages } },
    fallbackLng: false,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return { t: instance.t.bind(instance) as TFunction, i18n: instance };
}

/** Picks a few top-level namespaces of a catalog, so an island ships only what it uses. */
export function pickNamespaces(messages: Messages, namespaces: readonly string[]): Messages {
  return Object.fromEntries(namespaces.filter((ns) => ns in messages).map((ns) => [ns, messages[ns]]));
}

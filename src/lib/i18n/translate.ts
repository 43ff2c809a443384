import type { TFunction } from 'i18next';
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

/**
 * A t() for one locale's catalog: dotted keys and {{name}} interpolation, the only features the
 * catalogs use (no plurals, nesting or formatters; tests/unit/catalogs.test.ts keeps it so). It
 * keeps i18next's TFunction type and behaviour (no fallback language: a missing key shows the
 * key) without shipping i18next's 14 KB to every island (docs/decisions/0010-theme-and-budgets.md).
 */
export function createTranslator(_locale: Locale, messages: Messages): { t: TFunction } {
  const t = (key: string, options?: Record<string, unknown>): string => {
    let node: unknown = messages;
    for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Messages)[part] : undefined;
    if (typeof node !== 'string') return key;
    if (!options) return node;
    return node.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_whole, name: string) =>
      options[name] === undefined || options[name] === null ? '' : String(options[name]),
    );
  };
  return { t: t as unknown as TFunction };
}

/** Picks a few top-level namespaces of a catalog, so an island ships only what it uses. */
export function pickNamespaces(messages: Messages, namespaces: readonly string[]): Messages {
  return Object.fromEntries(namespaces.filter((ns) => ns in messages).map((ns) => [ns, messages[ns]]));
}

/** Picks a few dotted sub-trees of a catalog ("moderation.report"), for an island that uses a small part of a big namespace. */
export function pickMessages(messages: Messages, paths: readonly string[]): Messages {
  const picked: Messages = {};
  for (const path of paths) {
    const parts = path.split('.');
    let from: unknown = messages;
    for (const part of parts) from = from && typeof from === 'object' ? (from as Messages)[part] : undefined;
    if (from === undefined) continue;
    let into = picked;
    for (const part of parts.slice(0, -1)) into = (into[part] ??= {}) as Messages;
    into[parts.at(-1)!] = from;
  }
  return picked;
}

/** What the report button and dialog say, without the rest of the staff pages' strings. */
export function pickReportMessages(messages: Messages): Messages {
  return pickMessages(messages, ['moderation.report', 'moderation.targets', 'moderation.reasons']);
}

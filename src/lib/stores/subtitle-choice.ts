import { persistentAtom } from '@nanostores/persistent';
import type { Locale } from '../i18n/locales.ts';
import type { SubtitleChoice } from '../subtitles/choice.ts';

/**
 * The subtitle track chosen in the player, per interface language (issue 29): `shown` is the
 * choice (off included), `last` the last track that was on, which `c` brings back.
 */
export interface SubtitleMemory {
  shown?: SubtitleChoice;
  last?: SubtitleChoice;
}
export type SubtitleChoices = Partial<Record<Locale, SubtitleMemory>>;

const isChoice = (value: unknown): value is SubtitleChoice =>
  !!value &&
  typeof value === 'object' &&
  ((value as SubtitleChoice).language === null || typeof (value as SubtitleChoice).language === 'string');

export const $subtitleChoices = persistentAtom<SubtitleChoices>(
  'subtitle-choice',
  {},
  {
    encode: JSON.stringify,
    decode: (text) => {
      try {
        const stored = JSON.parse(text) as Record<string, SubtitleMemory>;
        const clean: SubtitleChoices = {};
        for (const [locale, memory] of Object.entries(stored ?? {})) {
          if (!memory || typeof memory !== 'object') continue;
          clean[locale as Locale] = {
            ...(isChoice(memory.shown) ? { shown: memory.shown } : {}),
            ...(isChoice(memory.last) ? { last: memory.last } : {}),
          };
        }
        return clean;
      } catch {
        return {};
      }
    },
  },
);

/** Remembers the choice made in this interface language (a track on is also the one `c` brings back). */
export function rememberSubtitleChoice(locale: Locale, shown: SubtitleChoice): void {
  const all = $subtitleChoices.get();
  const memory = all[locale] ?? {};
  $subtitleChoices.set({ ...all, [locale]: { shown, last: shown.language ? shown : memory.last } });
}

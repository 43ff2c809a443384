import type { Tag } from '../api/contracts/video.ts';
import type { TagLanguage } from '../api/contracts/video.constants.ts';

/** Which tag languages stand in for an interface language, best first. */
const FALLBACKS: Record<string, TagLanguage[]> = {
  zhs: ['zhs', 'zht', 'yue'],
  zht: ['zht', 'yue', 'zhs'],
  yue: ['yue', 'zht', 'zhs'],
  ja: ['ja'],
  ko: ['ko'],
  en: ['en'],
  vi: ['vi', 'en'],
  id: ['id', 'en'],
  fr: ['fr', 'en'],
};

/**
 * A tag's name for the viewer: the default name in their language (or a close one), else the
 * original name, else English, else the first name it has.
 */
export function tagDisplayName(tag: Tag, locale: string): string {
  const group = (lang: TagLanguage) => tag.tagNameList.find((g) => g.lang === lang);
  for (const lang of FALLBACKS[locale] ?? [locale as TagLanguage]) {
    const names = group(lang)?.tagName;
    if (names?.length) return (names.find((n) => n.isDefault) ?? names[0]).name;
  }
  const all = tag.tagNameList.flatMap((g) => g.tagName);
  const english = group('en')?.tagName ?? [];
  return (all.find((n) => n.isOriginalTagName) ?? english.find((n) => n.isDefault) ?? english[0] ?? all[0])?.name ?? '';
}

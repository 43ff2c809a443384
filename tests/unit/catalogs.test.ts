import { describe, expect, it } from 'vitest';
import { CATALOGS, messagesFor, translatorFor } from '../../src/lib/i18n/catalogs.ts';
import { CATALOG_LOCALES } from '../../src/lib/i18n/locales.ts';

type Tree = Record<string, unknown>;
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      value && typeof value === 'object'
        ? Object.entries(flatten(value as Tree, `${prefix}${key}.`))
        : [[`${prefix}${key}`, String(value)]],
    ),
  );
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const reference = flatten(CATALOGS.en);

/**
 * Values that are the same word in English and in that language. Anything else equal to the
 * English text is a language silently showing another language's text.
 */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  fr: [
    'profile.avatar',
    'nav.audio',
    'page.audio',
    'nav.photo',
    'page.photo',
    'nav.collections',
    'page.collections',
    'page.userCollections',
    'settings.groups.admin',
    'topbar.searchSubmit',
    'player.pause',
    'player.volume',
    'video.categories.anime',
    'video.categories.otomad',
    'audio.userTab',
    'audio.kindAudio',
    'audio.player.pause',
    'audio.player.volume',
    'photo.userTab',
    'photo.imageCount',
    'dev.slider.volume',
    'dev.mobile.orientation',
    'dev.mobile.portrait',
    'settings.pages.notifications',
    'notifications.ui.bell',
    'notifications.ui.settingsTitle',
    'notifications.tabs.mention',
    'moderation.log.kind',
    'moderation.log.what',
  ],
  id: [
    'nav.audio',
    'page.audio',
    'dev.breakpoints.tablet',
    'page.video',
    'dashboard.role.root',
    'dashboard.role.administrator',
    'roles.names.root',
    'roles.names.administrator',
    'myVideos.danmaku',
    'player.volume',
    'video.categories.anime',
    'video.categories.otomad',
    'audio.userTab',
    'audio.kindVideo',
    'audio.kindAudio',
    'audio.player.volume',
    'dev.slider.volume',
    'dev.components.chip',
    'dev.components.invalidLabel',
    'moderation.targets.video',
    'moderation.targets.danmaku',
  ],
  vi: [
    'page.video',
    'video.categories.otomad',
    'audio.kindVideo',
    'dev.components.invalidLabel',
    'moderation.targets.video',
    'moderation.targets.danmaku',
  ],
};
// Names, and punctuation every language here writes alike (the list separator ", ").
const BRAND_AND_NAMES = new Set(['site.name', 'dev.pages.test-lottie', 'dashboard.uid', 'notifications.separator']);

describe('message catalogs', () => {
  it.each(CATALOG_LOCALES)('%s has exactly the keys of the reference catalog', (locale) => {
    const keys = Object.keys(flatten(CATALOGS[locale])).sort();
    expect(keys).toEqual(Object.keys(reference).sort());
  });

  it.each(CATALOG_LOCALES)('%s has no empty text and keeps every placeholder', (locale) => {
    for (const [key, value] of Object.entries(flatten(CATALOGS[locale]))) {
      expect(value.trim(), `${locale}:${key}`).not.toBe('');
      expect(placeholders(value), `${locale}:${key}`).toEqual(placeholders(reference[key]));
    }
  });

  it.each(CATALOG_LOCALES.filter((l) => l !== 'en'))('%s does not show English text', (locale) => {
    const allowed = new Set([...(SAME_AS_ENGLISH[locale] ?? []), ...BRAND_AND_NAMES]);
    const copied = Object.entries(flatten(CATALOGS[locale]))
      .filter(([key, value]) => value === reference[key] && !allowed.has(key))
      .map(([key]) => key);
    expect(copied).toEqual([]);
  });

  it('writes Traditional and Cantonese catalogs in traditional characters', () => {
    // Characters that exist only in Simplified Chinese; their traditional forms differ.
    const simplifiedOnly =
      /[视频设录传账号载简体说请问户这个们发为与门关页网进时开间还点击应对见长样让认语错误验证码览历级图乐权线络务]/;
    for (const locale of ['zht', 'yue'] as const) {
      const simplified = Object.entries(flatten(CATALOGS[locale])).filter(([, value]) => simplifiedOnly.test(value));
      expect(simplified, locale).toEqual([]);
    }
  });

  it('shows message keys in the in-context translation mode', () => {
    expect(translatorFor('ii').t('nav.home')).toBe('⟦nav.home⟧');
    expect(Object.keys(flatten(messagesFor('ii')))).toEqual(Object.keys(reference));
  });

  it('translates with interpolation and never falls back to another language', () => {
    expect(translatorFor('en').t('page.video', { kvid: 42 })).toBe('Video kv42');
    expect(translatorFor('zhs').t('page.video', { kvid: 42 })).toBe('视频 kv42');
    expect(translatorFor('ja').t('no.such.key')).toBe('no.such.key');
  });
});

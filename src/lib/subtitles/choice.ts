/**
 * Which subtitle track the player shows (issue 29, playback): the viewer's choice is remembered
 * per interface language, as what it was (a language and a label, or "off"), since track ids
 * differ from video to video. With nothing remembered, the track in the interface's language
 * is shown when the part has one; otherwise none.
 */
import type { Locale } from '../i18n/locales.ts';

export interface TrackLike {
  id: number;
  language: string;
  label: string;
}

/** A remembered choice: a track by language and label, or off (language null). */
export interface SubtitleChoice {
  language: string | null;
  label?: string;
}

/** The BCP 47 languages each interface language reads, most specific first. */
const READS: Record<Locale, string[]> = {
  zhs: ['zh-Hans', 'zh-CN', 'zh-SG', 'zh'],
  zht: ['zh-Hant', 'zh-TW', 'zh-HK', 'zh'],
  yue: ['yue', 'zh-Hant-HK', 'zh-HK', 'zh-Hant', 'zh'],
  ja: ['ja'],
  ko: ['ko'],
  en: ['en'],
  fr: ['fr'],
  id: ['id', 'ms'],
  vi: ['vi'],
  ii: [],
};

const lower = (tag: string) => tag.toLowerCase();
/** `tag` is `wanted` or a more specific form of it (zh-Hans-CN for zh-Hans). */
const covers = (wanted: string, tag: string) =>
  lower(tag) === lower(wanted) || lower(tag).startsWith(`${lower(wanted)}-`);

/** The track of the interface's language, the most specific match first; null when there is none. */
export function trackForLocale<T extends TrackLike>(tracks: readonly T[], locale: Locale): T | null {
  for (const wanted of READS[locale] ?? []) {
    const found = tracks.find((t) => covers(wanted, t.language));
    if (found) return found;
  }
  return null;
}

/** The track a remembered choice names here: same language and label, else the same language; null for none. */
export function trackForChoice<T extends TrackLike>(tracks: readonly T[], choice: SubtitleChoice): T | null {
  if (!choice.language) return null;
  return (
    tracks.find((t) => lower(t.language) === lower(choice.language!) && t.label === choice.label) ??
    tracks.find((t) => lower(t.language) === lower(choice.language!)) ??
    null
  );
}

/** What the player shows at first: the remembered choice (off stays off), else the interface's language. */
export function initialTrack<T extends TrackLike>(
  tracks: readonly T[],
  locale: Locale,
  remembered: SubtitleChoice | undefined,
): T | null {
  if (remembered)
    return remembered.language ? (trackForChoice(tracks, remembered) ?? trackForLocale(tracks, locale)) : null;
  return trackForLocale(tracks, locale);
}

/**
 * What `c` turns on when subtitles are off: the last track shown, else the remembered or
 * interface-language one, else the first track.
 */
export function toggledOnTrack<T extends TrackLike>(
  tracks: readonly T[],
  locale: Locale,
  last: SubtitleChoice | undefined,
): T | null {
  if (!tracks.length) return null;
  return (last && trackForChoice(tracks, last)) ?? trackForLocale(tracks, locale) ?? tracks[0]!;
}

export const choiceOf = (track: TrackLike | null): SubtitleChoice =>
  track ? { language: track.language, label: track.label } : { language: null };

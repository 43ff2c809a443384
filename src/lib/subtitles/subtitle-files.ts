/**
 * What a dropped subtitle file is, from its name alone (the uploader can change it): the format
 * by the extension, the language by the part before it, as fansub releases name their files
 * (`ep01.zh-Hans.ass`, `Show - 01 [ja].srt`, `movie.en-US.vtt`).
 */
import { canonicalLanguageTag, type SubtitleFormat } from '../api/contracts/subtitle.constants.ts';

const FORMAT_OF: Record<string, SubtitleFormat> = { ass: 'ass', ssa: 'ass', srt: 'srt', vtt: 'vtt' };

export interface SubtitleFileGuess {
  format: SubtitleFormat;
  language: string;
}

/** The format and language a file name suggests; null when it is no subtitle file; language '' when none is named. */
export function guessSubtitleFile(name: string, fallbackLanguage = ''): SubtitleFileGuess | null {
  const match = /\.([a-z0-9]+)$/i.exec(name);
  const format = match ? FORMAT_OF[match[1]!.toLowerCase()] : undefined;
  if (!format) return null;
  const stem = name.slice(0, -match![0].length);
  // The last dot-, bracket- or underscore-separated word that is a language tag of 2-3 letters (with script/region).
  const words = stem
    .split(/[.\s_[\]()]+/)
    .filter(Boolean)
    .reverse();
  for (const word of words) {
    if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(word)) continue;
    const tag = canonicalLanguageTag(word);
    if (tag && new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(tag))
      return { format, language: tag };
  }
  return { format, language: fallbackLanguage };
}

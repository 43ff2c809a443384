import type { Danmaku } from '../api/contracts/interaction.ts';
import {
  compileBlockRegexes,
  containsKeyword,
  matchesAnyRegex,
  normalizeKeywords,
} from '../block-lists/text-blocks.ts';

/** What a viewer chose not to see (player settings and block lists). */
export interface DanmakuBlocking {
  scroll: boolean;
  top: boolean;
  bottom: boolean;
  /** Any colour other than white. */
  colored: boolean;
  keywords: readonly string[];
  /** Regular expressions as typed (case-insensitive); invalid ones are ignored. */
  regexes: readonly string[];
}

export const NO_BLOCKING: DanmakuBlocking = {
  scroll: false,
  top: false,
  bottom: false,
  colored: false,
  keywords: [],
  regexes: [],
};

/** The predicate the engine applies to each comment before it enters the stage. */
export function danmakuFilter(blocking: DanmakuBlocking): (item: Danmaku) => boolean {
  const keywords = normalizeKeywords(blocking.keywords);
  const regexes = compileBlockRegexes(blocking.regexes);
  return (item) => {
    const scrolling = item.mode === 'rtl' || item.mode === 'ltr';
    if (
      (scrolling && blocking.scroll) ||
      (item.mode === 'top' && blocking.top) ||
      (item.mode === 'bottom' && blocking.bottom)
    )
      return false;
    if (blocking.colored && item.color.toLowerCase() !== 'ffffff') return false;
    return !containsKeyword(item.text, keywords) && !matchesAnyRegex(item.text, regexes);
  };
}

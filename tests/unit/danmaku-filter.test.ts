import { describe, expect, it } from 'vitest';
import { danmakuFilter, NO_BLOCKING } from '../../src/lib/danmaku/filter.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';

const d = (text: string, over: Partial<Danmaku> = {}): Danmaku => ({
  id: 1,
  time: 0,
  text,
  color: 'ffffff',
  fontSize: 'medium',
  mode: 'rtl',
  enableRainbow: false,
  editDateTime: 0,
  ...over,
});

describe('what a viewer blocks', () => {
  it('lets everything through by default', () => {
    expect(danmakuFilter(NO_BLOCKING)(d('hi', { color: 'ff0000', mode: 'top' }))).toBe(true);
  });
  it('blocks by type and by colour', () => {
    const accept = danmakuFilter({ ...NO_BLOCKING, top: true, colored: true });
    expect(accept(d('a', { mode: 'top' }))).toBe(false);
    expect(accept(d('a', { color: 'FE0000' }))).toBe(false);
    expect(accept(d('a', { mode: 'bottom' }))).toBe(true);
    const noScroll = danmakuFilter({ ...NO_BLOCKING, scroll: true });
    expect([noScroll(d('a')), noScroll(d('a', { mode: 'ltr' })), noScroll(d('a', { mode: 'top' }))]).toEqual([
      false,
      false,
      true,
    ]);
  });
  it('blocks keywords in any case and regular expressions, ignoring broken ones', () => {
    const accept = danmakuFilter({ ...NO_BLOCKING, keywords: ['剧透', 'SPOILER'], regexes: ['^2+3+3+$', '(unclosed'] });
    expect(accept(d('前方剧透注意'))).toBe(false);
    expect(accept(d('no spoilers please'))).toBe(false);
    expect(accept(d('2333333'))).toBe(false);
    expect(accept(d('好听'))).toBe(true);
  });
});

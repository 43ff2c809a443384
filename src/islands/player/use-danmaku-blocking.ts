import { useEffect, useMemo, useState } from 'react';
import type { DanmakuBlocking } from '../../lib/danmaku/filter.ts';
import type { BlockLists } from '../../lib/stores/block-lists.ts';
import type { PlayerSettings } from '../../lib/stores/player-settings.ts';

const NO_LISTS: Pick<BlockLists, 'keywords' | 'regexes'> = { keywords: [], regexes: [] };

/**
 * What a viewer chose not to see among danmaku, on the video and the audio player alike: the
 * kinds the danmaku settings hide, and a member's keyword and expression block lists. The lists'
 * store is loaded only once the viewer is known to be a member: a guest has none, and the page
 * does not carry the store for them (decision 0029).
 */
export function useDanmakuBlocking(settings: PlayerSettings, member: boolean): DanmakuBlocking {
  const [lists, setLists] = useState(NO_LISTS);
  useEffect(() => {
    if (!member) return;
    let left = false;
    let stop: (() => void) | undefined;
    void import('../../lib/stores/block-lists.ts').then(({ $blockLists, loadBlockLists }) => {
      if (left) return;
      stop = $blockLists.subscribe(setLists);
      void loadBlockLists();
    });
    return () => {
      left = true;
      stop?.();
    };
  }, [member]);
  return useMemo(
    () => ({ ...settings.danmaku.block, keywords: lists.keywords, regexes: lists.regexes }),
    [settings.danmaku.block, lists],
  );
}

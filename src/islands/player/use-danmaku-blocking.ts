import { useEffect, useMemo } from 'react';
import type { DanmakuBlocking } from '../../lib/danmaku/filter.ts';
import { $blockLists, EMPTY_BLOCK_LISTS, loadBlockLists } from '../../lib/stores/block-lists.ts';
import type { PlayerSettings } from '../../lib/stores/player-settings.ts';
import { useHydratedStore } from '../use-hydrated-store.ts';

/**
 * What a viewer chose not to see among danmaku, on the video and the audio player alike: the
 * kinds the danmaku settings hide, and a member's keyword and expression block lists (loaded once
 * they are known to be a member).
 */
export function useDanmakuBlocking(settings: PlayerSettings, member: boolean): DanmakuBlocking {
  const lists = useHydratedStore($blockLists, EMPTY_BLOCK_LISTS);
  useEffect(() => {
    if (member) void loadBlockLists();
  }, [member]);
  return useMemo(() => ({ ...settings.danmaku.block, keywords: lists.keywords, regexes: lists.regexes }), [settings.danmaku.block, lists]);
}

import { useCallback, useEffect, type Dispatch, type RefObject } from 'react';
import type { PlayerEvent } from '../../lib/player/player-state.ts';
import { partFromSearch, partSearch } from '../../lib/player/parts.ts';
import type { PartSpan } from '../../lib/player/part-span.ts';
import { $playerSettings } from '../../lib/stores/player-settings.ts';

export { partAt, partSpan } from '../../lib/player/parts.ts';
export type { PartSpan };

/**
 * The part in the address (?p=2, as Bilibili's): choosing a part adds a history entry, so back
 * and forward go between parts and a shared link opens that part; the page reads ?p itself
 * before rendering. When a part ends, the next one follows (unless looping).
 */
export function usePartAddress(
  videoRef: RefObject<HTMLVideoElement | null>,
  count: number,
  current: number,
  dispatch: Dispatch<PlayerEvent>,
) {
  /** Shows part `index`; `replace` names it in the address without a history entry of its own. */
  const select = useCallback(
    (index: number, replace = false) => {
      if (index === current || index < 0 || index >= count) return;
      history[replace ? 'replaceState' : 'pushState'](history.state, '', partSearch(location.href, index));
      dispatch({ type: 'part', index });
    },
    [count, current, dispatch],
  );

  useEffect(() => {
    if (count < 2) return;
    const onPop = () => dispatch({ type: 'part', index: partFromSearch(location.search, count) });
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [count, dispatch]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || current >= count - 1) return;
    const onEnded = () => !$playerSettings.get().loop && select(current + 1);
    video.addEventListener('ended', onEnded);
    return () => video.removeEventListener('ended', onEnded);
  }, [videoRef, current, count, select]);

  return select;
}

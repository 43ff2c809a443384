import type { Repositories } from '../repositories/index.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';

/** Watch history: the last position per video (or audio track), kept only while the member has it turned on. */
export function createHistoryService(repositories: Pick<Repositories, 'history'>) {
  const { history } = repositories;
  return {
    /** Records a view and its position; nothing when the member turned history off. */
    async record(uid: number, target: MediaTarget, anchor: number): Promise<boolean> {
      if ((await history.enabledFor(uid)) === false) return false;
      await history.upsert(uid, target, anchor, new Date());
      return true;
    },
    /** The position to resume at, if the member watched (or listened to) this target before. */
    async anchorOf(uid: number, target: MediaTarget): Promise<number | null> {
      return (await history.anchorOf(uid, target)) ?? null;
    },
    async clear(uid: number): Promise<void> {
      await history.clear(uid);
    },
  };
}

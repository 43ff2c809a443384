import type { Repositories } from '../repositories/index.ts';

/** Watch history: the last position per video, kept only while the member has it turned on. */
export function createHistoryService(repositories: Pick<Repositories, 'history'>) {
  const { history } = repositories;
  return {
    /** Records a view and its position; nothing when the member turned history off. */
    async record(uid: number, videoId: number, anchor: number): Promise<boolean> {
      if ((await history.enabledFor(uid)) === false) return false;
      await history.upsert(uid, videoId, anchor, new Date());
      return true;
    },
    /** The position to resume at, if the member watched this video before. */
    async anchorOf(uid: number, videoId: number): Promise<number | null> {
      return (await history.anchorOf(uid, videoId)) ?? null;
    },
    async clear(uid: number): Promise<void> {
      await history.clear(uid);
    },
  };
}

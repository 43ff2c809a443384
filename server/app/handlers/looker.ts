import type { HandlerContext } from '../mount-routes.ts';

/**
 * Who a list is for: a logged-in viewer with blocked or hidden users or tags gets a list without
 * them (`viewerUid` set), and that answer is personal; everyone else shares the public one.
 */
export async function listViewer({ services, viewer }: HandlerContext): Promise<{ viewerUid: number | null; personal: boolean; people: boolean }> {
  const who = await viewer();
  const filters = await services.blockLists.filtersFor(who?.uid ?? null);
  return { viewerUid: filters.videos ? who!.uid : null, personal: filters.videos, people: filters.people };
}

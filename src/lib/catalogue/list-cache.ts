/** Whom an on-demand list page was made for (SiteLocals.listViewer). */
export interface ListViewer {
  viewerUid: number | null;
  member: boolean;
}
export const GUEST_LIST_VIEWER: ListViewer = { viewerUid: null, member: false };

/**
 * The Cache-Control of an on-demand list page: shared briefly by CDNs for guests; for a member
 * private and revalidated each time (a page kept from before they blocked someone must not come
 * back), not stored at all when it was made for them (their blocked or hidden uploaders and tags
 * left out); never stored when it failed.
 */
export function listCacheControl(options: { failed?: boolean; viewer: ListViewer }): string {
  if (options.failed || options.viewer.viewerUid !== null) return options.failed ? 'no-store' : 'private, no-store';
  return options.viewer.member ? 'private, no-cache' : 'public, max-age=0, s-maxage=30, stale-while-revalidate=300';
}

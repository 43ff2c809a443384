/**
 * The Cache-Control of an on-demand list page: shared briefly by CDNs, unless the list was made
 * for one viewer (their blocked or hidden uploaders and tags left out) or it failed.
 */
export function listCacheControl(options: { failed?: boolean; personal?: boolean }): string {
  if (options.failed) return 'no-store';
  return options.personal ? 'private, no-store' : 'public, max-age=0, s-maxage=30, stale-while-revalidate=300';
}

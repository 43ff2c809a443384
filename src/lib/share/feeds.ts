/** The video feeds' addresses (src/pages/feeds/videos.xml.ts): the whole site, an uploader, a tag. */
export type FeedScope = { kind: 'site' } | { kind: 'user'; uid: number } | { kind: 'tag'; tagId: number };

const ID = /^[1-9]\d{0,14}$/;

/** The scope a feed address asks for; null for anything else (both, or not an id). */
export function feedScopeOf(search: URLSearchParams): FeedScope | null {
  const uid = search.get('uid');
  const tag = search.get('tag');
  if (uid !== null && tag !== null) return null;
  if (uid !== null) return ID.test(uid) ? { kind: 'user', uid: Number(uid) } : null;
  if (tag !== null) return ID.test(tag) ? { kind: 'tag', tagId: Number(tag) } : null;
  return { kind: 'site' };
}

export function feedPath(scope: FeedScope): string {
  return scope.kind === 'user'
    ? `/feeds/videos.xml?uid=${scope.uid}`
    : scope.kind === 'tag'
      ? `/feeds/videos.xml?tag=${scope.tagId}`
      : '/feeds/videos.xml';
}

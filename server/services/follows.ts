/**
 * SPEC §7 "Feed": members follow users (never themselves, never across a block either way), and
 * read the approved videos that followed uploaders pushed to the feed, newest first. Lists page
 * by an opaque cursor (the last row's exact creation time and id), so rows added meanwhile never
 * shift the next page.
 */
import type { Repositories } from '../repositories/index.ts';
import { FEED_KINDS, type FeedKind, type FeedPosition } from '../repositories/keyset.sql.ts';
import type { FollowPersonRow } from '../repositories/follows.repository.ts';
import { DomainError, Forbidden, Invalid, NotFound } from '../domain/errors.ts';
import type { FollowPerson, MediaItem } from '../../src/lib/api/contracts/feed.ts';
import type { VideoThumb } from '../../src/lib/api/contracts/video.ts';
import { toThumb } from './catalogue.ts';
import type { AudioService } from './audio.ts';
import type { PhotoService } from './photos.ts';

/**
 * A cursor is base64url of "<microseconds>.<id>", and in the feed ".<kind>" after a track or a
 * post (feed positions, keyset.sql.ts); anything else is refused as input.
 */
export function encodeCursor(position: FeedPosition): string {
  const kind = position.kind && position.kind !== 'video' ? `.${position.kind}` : '';
  return Buffer.from(`${position.micros}.${position.id}${kind}`).toString('base64url');
}
export function decodeCursor(cursor: string | undefined): FeedPosition | null {
  if (cursor === undefined) return null;
  const match = /^(-?\d{1,19})\.(\d{1,16})(?:\.(audio|photo))?$/.exec(Buffer.from(cursor, 'base64url').toString());
  const id = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(id)) throw new Invalid([{ path: 'cursor', message: 'is not a cursor' }]);
  return { micros: match[1], id, ...(match[3] ? { kind: match[3] as FeedKind } : {}) };
}

/** One row of the merged feed: its kind, exact creation time and id (its place in the order), and the item. */
interface FeedRow {
  kind: FeedKind;
  micros: string;
  id: number;
  item: MediaItem;
}
/** The feed's order: newer first; at one microsecond videos, tracks, posts; then higher ids first. */
function feedOrder(a: FeedRow, b: FeedRow): number {
  const at = BigInt(b.micros) - BigInt(a.micros);
  if (at !== 0n) return at > 0n ? 1 : -1;
  return FEED_KINDS.indexOf(a.kind) - FEED_KINDS.indexOf(b.kind) || b.id - a.id;
}

/** A page of rows read one past its size: the rows, and the cursor after the last when there are more. */
export function paged<R extends { created_micros: string }>(
  rows: R[],
  pageSize: number,
  idOf: (row: R) => number,
): { page: R[]; nextCursor: string | null } {
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    page,
    nextCursor: rows.length > pageSize && last ? encodeCursor({ micros: last.created_micros, id: idOf(last) }) : null,
  };
}

const personOf = (row: FollowPersonRow, isFollowing: boolean): FollowPerson => ({
  uid: row.uid,
  username: row.username,
  userNickname: row.user_nickname,
  avatar: row.avatar,
  signature: row.signature,
  followDateTime: new Date(row.created_at).getTime(),
  isFollowing,
});

export interface FollowState {
  isFollowing: boolean;
  followerCount: number;
}
export interface CursorPage {
  cursor?: string;
  pageSize: number;
}

/** The sections whose new tracks and posts the feed holds beside videos. */
export interface FeedSections {
  audio: Pick<AudioService, 'feedPage'>;
  photos: Pick<PhotoService, 'feedPage'>;
  /** Told of a new follow (the followed member's notification). */
  onFollowed?: (followerUid: number, followedUid: number) => Promise<void>;
}

export function createFollowService(
  repositories: Pick<Repositories, 'follows' | 'videos' | 'blockLists'>,
  sections: FeedSections,
) {
  const { follows, videos, blockLists } = repositories;

  async function requireOther(uid: number, otherUid: number): Promise<void> {
    if (uid === otherUid) throw new DomainError('FOLLOW_SELF');
    if (!(await videos.userExists(otherUid))) throw new NotFound();
  }
  async function stateOf(followedUid: number, isFollowing: boolean): Promise<FollowState> {
    return { isFollowing, followerCount: (await follows.counts(followedUid)).followers };
  }

  return {
    /** Follows `followedUid`; following again changes nothing. Refused across a block, either way. */
    async follow(followerUid: number, followedUid: number): Promise<FollowState> {
      await requireOther(followerUid, followedUid);
      const between = await blockLists.entriesBetween(followerUid, followedUid);
      if (between.some((entry) => entry.type === 'block')) throw new Forbidden('FOLLOW_BLOCKED');
      // Only a new follow is news to the followed member (following again changes nothing).
      if (await follows.insert(followerUid, followedUid)) await sections.onFollowed?.(followerUid, followedUid);
      return stateOf(followedUid, true);
    },

    /** Stops following; when there was no follow, nothing changes. */
    async unfollow(followerUid: number, followedUid: number): Promise<FollowState> {
      await requireOther(followerUid, followedUid);
      await follows.delete(followerUid, followedUid);
      return stateOf(followedUid, false);
    },

    /** Whether the viewer follows `uid` (false for guests and oneself). */
    isFollowing: (viewerUid: number | null, uid: number): Promise<boolean> =>
      viewerUid === null || viewerUid === uid ? Promise.resolve(false) : follows.exists(viewerUid, uid),

    counts: (uid: number) => follows.counts(uid),

    /**
     * Who follows `uid` (followers) or whom `uid` follows (followings), newest follow first, each
     * with whether `viewerUid` follows them (the list's follow buttons).
     */
    async people(
      side: 'followers' | 'followings',
      uid: number,
      { cursor, pageSize }: CursorPage,
      viewerUid: number | null = null,
    ): Promise<{ result: FollowPerson[]; nextCursor: string | null }> {
      const after = decodeCursor(cursor);
      if (!(await videos.userExists(uid))) throw new NotFound();
      const rows = await (side === 'followers' ? follows.followersPage : follows.followingsPage)(
        uid,
        after,
        pageSize + 1,
      );
      const { page, nextCursor } = paged(rows, pageSize, (row) => row.uid);
      const followed =
        viewerUid === null
          ? new Set<number>()
          : await follows.followedAmong(
              viewerUid,
              page.map((row) => row.uid).filter((id) => id !== viewerUid),
            );
      return { result: page.map((row) => personOf(row, followed.has(row.uid))), nextCursor };
    },

    /**
     * The member's feed: a page of videos, tracks and posts, newest first, and where the next page
     * starts. Each kind is read one past the page from the cursor; the merge keeps the page's newest.
     */
    async feed(
      viewerUid: number,
      { cursor, pageSize }: CursorPage,
    ): Promise<{ items: MediaItem[]; videos: VideoThumb[]; nextCursor: string | null }> {
      const after = decodeCursor(cursor);
      const [videoRows, tracks, posts] = await Promise.all([
        videos.feedPage(viewerUid, after, pageSize + 1),
        sections.audio.feedPage(viewerUid, after, pageSize + 1),
        sections.photos.feedPage(viewerUid, after, pageSize + 1),
      ]);
      const rows: FeedRow[] = [
        ...videoRows.map(
          (row): FeedRow => ({
            kind: 'video',
            micros: row.created_micros,
            id: row.video_id,
            item: { type: 'video', video: toThumb(row) },
          }),
        ),
        ...tracks.map(
          (row): FeedRow => ({
            kind: 'audio',
            micros: row.micros,
            id: row.id,
            item: { type: 'audio', track: row.track },
          }),
        ),
        ...posts.map(
          (row): FeedRow => ({
            kind: 'photo',
            micros: row.micros,
            id: row.id,
            item: { type: 'photo', photo: row.photo },
          }),
        ),
      ].sort(feedOrder);
      const page = rows.slice(0, pageSize);
      const last = page.at(-1);
      const nextCursor =
        rows.length > pageSize && last ? encodeCursor({ micros: last.micros, id: last.id, kind: last.kind }) : null;
      const items = page.map((row) => row.item);
      return { items, videos: items.flatMap((item) => (item.type === 'video' ? [item.video] : [])), nextCursor };
    },
  };
}
export type FollowService = ReturnType<typeof createFollowService>;

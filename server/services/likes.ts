import type { Repositories } from '../repositories/index.ts';
import type { LikeResponse } from '../../src/lib/api/contracts/likes.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';
import type { ConversationEvents } from './conversation-events.ts';
import { Forbidden } from '../domain/errors.ts';

/** Likes of videos, tracks and photo posts (issue 27): idempotent both ways, counted on sharded counters. */
export function createLikeService(repositories: Pick<Repositories, 'likes'>, events: ConversationEvents) {
  const { likes } = repositories;
  return {
    /** Likes the target (once however often asked), unless its uploader blocked the member; the uploader hears of a new like. */
    async like(uid: number, target: MediaTarget & { uploaderUid: number }): Promise<LikeResponse> {
      const item = { type: target.type, id: target.id };
      const { blocked, added, likeCount } = await likes.like(uid, item, target.uploaderUid);
      if (blocked) throw new Forbidden('BLOCKED_BY_UPLOADER');
      if (added && target.uploaderUid !== uid)
        await events.onLike({
          recipientUid: target.uploaderUid,
          actorUid: uid,
          mediaType: item.type,
          mediaId: item.id,
        });
      return { success: true, likeCount, isLiked: true };
    },
    async cancel(uid: number, target: MediaTarget): Promise<LikeResponse> {
      const { likeCount } = await likes.unlike(uid, { type: target.type, id: target.id });
      return { success: true, likeCount, isLiked: false };
    },
    /** What an item's answer carries: the count for everyone, whether they like it for a member. */
    async factsFor(target: MediaTarget, viewerUid: number | null): Promise<{ likeCount: number; isLiked?: boolean }> {
      const { likeCount, isLiked } = await likes.factsOf(target, viewerUid);
      return viewerUid === null ? { likeCount } : { likeCount, isLiked };
    },
  };
}

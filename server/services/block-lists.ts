import type { Repositories } from '../repositories/index.ts';
import type { BlockListsRepository } from '../repositories/block-lists.repository.ts';
import { DomainError } from '../domain/errors.ts';
import { createTagService } from './tags.ts';
import { regexVerdict } from '../../src/lib/validation/regex-safety.ts';
import { normalizeKeywords } from '../../src/lib/block-lists/text-blocks.ts';
import { BLOCK_LIST_LIMITS, type BlockListType } from '../../src/lib/validation/block-lists.ts';
import type { BlockListItem } from '../../src/lib/api/contracts/block.ts';

/** The block flags video and user answers carry, from the viewer's side. */
export interface BlockFlags {
  isBlockedByOther: boolean;
  isBlocked: boolean;
  isHidden: boolean;
}
export const NO_BLOCK_FLAGS: BlockFlags = { isBlockedByOther: false, isBlocked: false, isHidden: false };

/**
 * A viewer's keyword and expression blocks, ready to match: keywords normalized, and only the
 * expressions that pass today's safety check (an entry kept from before a stricter rule is skipped).
 */
export async function textBlocksOf(
  blockLists: Pick<BlockListsRepository, 'textEntriesOf'>,
  viewerUid: number,
): Promise<{ keywords: string[]; regexes: string[] }> {
  const rows = await blockLists.textEntriesOf(viewerUid);
  return {
    keywords: normalizeKeywords(rows.filter((r) => r.type === 'keyword').map((r) => r.value)),
    regexes: rows.filter((r) => r.type === 'regex' && regexVerdict(r.value) === 'ok').map((r) => r.value),
  };
}

export function createBlockListService(
  repositories: Pick<Repositories, 'blockLists' | 'tags' | 'follows' | 'transaction'>,
) {
  const { blockLists } = repositories;
  const tags = createTagService(repositories);
  return {
    /**
     * Adds one entry; answers false when it was already there. The member's row is locked for
     * the change, so concurrent adds cannot pass the list's limit.
     */
    async add(uid: number, type: BlockListType, value: string): Promise<boolean> {
      let target: { target_uid?: number; tag_id?: number } = {};
      if (type === 'block' || type === 'hide') {
        const targetUid = Number(value);
        if (targetUid === uid) throw new DomainError('BLOCK_SELF');
        if (!(await blockLists.userExists(targetUid))) throw new DomainError('NOT_FOUND');
        target = { target_uid: targetUid };
      } else if (type === 'tag') {
        if (!(await repositories.tags.existing([Number(value)])).length) throw new DomainError('NOT_FOUND');
        target = { tag_id: Number(value) };
      } else if (type === 'regex') {
        const verdict = regexVerdict(value);
        if (verdict === 'invalid') throw new DomainError('INVALID_REGEX', { extra: { unsafeRegex: false } });
        if (verdict === 'unsafe') throw new DomainError('UNSAFE_REGEX', { extra: { unsafeRegex: true } });
      }
      return repositories.transaction(async ({ blockLists: trx, follows }) => {
        await trx.lockMember(uid);
        if (await trx.hasEntry(uid, type, value)) return false;
        const limit = BLOCK_LIST_LIMITS[type];
        if ((await trx.countEntries(uid, type)) >= limit)
          throw new DomainError('BLOCK_LIST_FULL', { extra: { limit } });
        await trx.insertEntry({ uid, type, value, ...target });
        // A block ends the follows between the two, both ways (neither may follow the other while it lasts).
        if (type === 'block' && target.target_uid) await follows.deleteBetween(uid, target.target_uid);
        return true;
      });
    },

    /** Removes one entry; answers false when there was none (removing twice is harmless). */
    remove: (uid: number, type: BlockListType, value: string): Promise<boolean> =>
      blockLists.deleteEntry(uid, type, value),

    /** One page of a list, newest first, with the users' names and avatars or the tags' names. */
    async list(
      uid: number,
      type: BlockListType,
      page: { page: number; pageSize: number },
    ): Promise<{ blocklistCount: number; result: BlockListItem[] }> {
      const [rows, count] = await Promise.all([
        blockLists.pageOfEntries(uid, type, { limit: page.pageSize, offset: (page.page - 1) * page.pageSize }),
        blockLists.countEntries(uid, type),
      ]);
      const tagList = await tags.tagsById(rows.flatMap((r) => (r.tag_id ? [r.tag_id] : [])));
      const tagById = new Map(tagList.map((t) => [t.tagId, t]));
      return {
        blocklistCount: count,
        result: rows.map((r) => ({
          type: r.type,
          value: r.value,
          createDateTime: new Date(r.created_at).getTime(),
          uid: r.target_uid,
          username: r.username,
          userNickname: r.user_nickname,
          avatar: r.avatar ?? '',
          tag: r.tag_id ? (tagById.get(r.tag_id) ?? null) : null,
        })),
      };
    },

    /** The flags between a viewer and another user (all false for guests and for oneself). */
    async flags(viewerUid: number | null, otherUid: number): Promise<BlockFlags> {
      if (viewerUid === null || viewerUid === otherUid) return NO_BLOCK_FLAGS;
      const rows = await blockLists.entriesBetween(viewerUid, otherUid);
      const mine = (type: string) => rows.some((r) => Number(r.uid) === viewerUid && r.type === type);
      return {
        isBlockedByOther: rows.some((r) => Number(r.uid) === otherUid),
        isBlocked: mine('block'),
        isHidden: mine('hide'),
      };
    },

    /** Whether the server filters anything for this viewer (their answers are then personal). */
    async filtersFor(viewerUid: number | null): Promise<{ videos: boolean; people: boolean }> {
      if (viewerUid === null) return { videos: false, people: false };
      const types = await blockLists.typesInUse(viewerUid, ['block', 'hide', 'tag']);
      return { videos: types.length > 0, people: types.includes('block') };
    },

    /** Whether `ownerUid` has blocked `uid` (who then may not comment on or send danmaku to the owner's videos). */
    isBlockedBy: (ownerUid: number, uid: number): Promise<boolean> => blockLists.isBlockedBy(ownerUid, uid),
  };
}
export type BlockListService = ReturnType<typeof createBlockListService>;

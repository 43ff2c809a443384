import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import { createTagService } from './tags.ts';
import { regexVerdict } from '../../src/lib/validation/regex-safety.ts';
import { normalizeKeywords } from '../../src/lib/block-lists/text-blocks.ts';
import { BLOCK_LIST_LIMITS, type BlockListItem, type BlockListType } from '../../src/lib/api/contract.ts';

/** The block flags video and user answers carry, from the viewer's side. */
export interface BlockFlags { isBlockedByOther: boolean; isBlocked: boolean; isHidden: boolean }
export const NO_BLOCK_FLAGS: BlockFlags = { isBlockedByOther: false, isBlocked: false, isHidden: false };

/**
 * SQL over `videos as v`: true when this viewer has not blocked or hidden the uploader and has
 * blocked none of the video's tags. The one condition every video list applies.
 */
export function videoVisibleToViewer(viewerUid: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM block_entries be WHERE be.uid = ${viewerUid} AND (
    (be.type IN ('block', 'hide') AND be.target_uid = v.uploader_uid)
    OR (be.type = 'tag' AND be.tag_id IN (SELECT vt.tag_id FROM video_tags vt WHERE vt.video_id = v.video_id))))`;
}

/** SQL: the uids this viewer blocked (their danmaku and comments are left out for them). */
export function usersBlockedBy(viewerUid: number): RawBuilder<unknown> {
  return sql`(SELECT be.target_uid FROM block_entries be WHERE be.uid = ${viewerUid} AND be.type = 'block')`;
}

/**
 * A viewer's keyword and expression blocks, ready to match: keywords normalized, and only the
 * expressions that pass today's safety check (an entry kept from before a stricter rule is skipped).
 */
export async function textBlocksOf(db: Kysely<Database>, viewerUid: number): Promise<{ keywords: string[]; regexes: string[] }> {
  const rows = await db.selectFrom('block_entries').select(['type', 'value']).where('uid', '=', viewerUid).where('type', 'in', ['keyword', 'regex']).execute();
  return {
    keywords: normalizeKeywords(rows.filter((r) => r.type === 'keyword').map((r) => r.value)),
    regexes: rows.filter((r) => r.type === 'regex' && regexVerdict(r.value) === 'ok').map((r) => r.value),
  };
}

/** Whether `ownerUid` has blocked `uid` (who then may not comment on or send danmaku to the owner's videos). */
export async function isBlockedBy(db: Kysely<Database>, ownerUid: number, uid: number): Promise<boolean> {
  const row = await db.selectFrom('block_entries').select('id').where('uid', '=', ownerUid).where('type', '=', 'block')
    .where('target_uid', '=', uid).executeTakeFirst();
  return !!row;
}

/** The lists' keys: a keyword matches case-insensitively, everything else exactly. */
const keyOf = (type: BlockListType) => (type === 'keyword' ? sql<string>`lower(value)` : sql<string>`value`);
const keyValue = (type: BlockListType, value: string) => (type === 'keyword' ? value.toLowerCase() : value);

export function createBlockListService(db: Kysely<Database>) {
  const tags = createTagService(db);

  return {
    /**
     * Adds one entry; answers false when it was already there. The member's row is locked for
     * the change, so concurrent adds cannot pass the list's limit.
     */
    async add(uid: number, type: BlockListType, value: string): Promise<boolean> {
      let target: { target_uid?: number; tag_id?: number } = {};
      if (type === 'block' || type === 'hide') {
        const targetUid = Number(value);
        if (targetUid === uid) throw new AppError('BLOCK_SELF');
        if (!(await db.selectFrom('users').select('uid').where('uid', '=', targetUid).executeTakeFirst())) throw new AppError('NOT_FOUND');
        target = { target_uid: targetUid };
      } else if (type === 'tag') {
        if (!(await db.selectFrom('tags').select('tag_id').where('tag_id', '=', Number(value)).executeTakeFirst())) throw new AppError('NOT_FOUND');
        target = { tag_id: Number(value) };
      } else if (type === 'regex') {
        const verdict = regexVerdict(value);
        if (verdict === 'invalid') throw new AppError('INVALID_REGEX', { extra: { unsafeRegex: false } });
        if (verdict === 'unsafe') throw new AppError('UNSAFE_REGEX', { extra: { unsafeRegex: true } });
      }
      return db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('uid').where('uid', '=', uid).forUpdate().executeTakeFirstOrThrow();
        const existing = await trx.selectFrom('block_entries').select('id').where('uid', '=', uid).where('type', '=', type)
          .where(keyOf(type), '=', keyValue(type, value)).executeTakeFirst();
        if (existing) return false;
        const { n } = await trx.selectFrom('block_entries').select((eb) => eb.fn.countAll<number>().as('n'))
          .where('uid', '=', uid).where('type', '=', type).executeTakeFirstOrThrow();
        const limit = BLOCK_LIST_LIMITS[type];
        if (Number(n) >= limit) throw new AppError('BLOCK_LIST_FULL', { extra: { limit } });
        await trx.insertInto('block_entries').values({ uid, type, value, ...target }).execute();
        return true;
      });
    },

    /** Removes one entry; answers false when there was none (removing twice is harmless). */
    async remove(uid: number, type: BlockListType, value: string): Promise<boolean> {
      const result = await db.deleteFrom('block_entries').where('uid', '=', uid).where('type', '=', type)
        .where(keyOf(type), '=', keyValue(type, value)).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** One page of a list, newest first, with the users' names and avatars or the tags' names. */
    async list(uid: number, type: BlockListType, page: { page: number; pageSize: number }): Promise<{ blocklistCount: number; result: BlockListItem[] }> {
      const [rows, count] = await Promise.all([
        db.selectFrom('block_entries as b').leftJoin('users as u', 'u.uid', 'b.target_uid')
          .select(['b.type', 'b.value', 'b.created_at', 'b.target_uid', 'b.tag_id', 'u.username', 'u.user_nickname', 'u.avatar'])
          .where('b.uid', '=', uid).where('b.type', '=', type).orderBy('b.created_at', 'desc').orderBy('b.id', 'desc')
          .limit(page.pageSize).offset((page.page - 1) * page.pageSize).execute(),
        db.selectFrom('block_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', uid).where('type', '=', type).executeTakeFirstOrThrow(),
      ]);
      const tagList = await tags.tagsById(rows.flatMap((r) => (r.tag_id ? [r.tag_id] : [])));
      const tagById = new Map(tagList.map((t) => [t.tagId, t]));
      return {
        blocklistCount: Number(count.n),
        result: rows.map((r) => ({
          type: r.type, value: r.value, createDateTime: new Date(r.created_at).getTime(),
          uid: r.target_uid, username: r.username, userNickname: r.user_nickname, avatar: r.avatar ?? '',
          tag: r.tag_id ? tagById.get(r.tag_id) ?? null : null,
        })),
      };
    },

    /** The flags between a viewer and another user (all false for guests and for oneself). */
    async flags(viewerUid: number | null, otherUid: number): Promise<BlockFlags> {
      if (viewerUid === null || viewerUid === otherUid) return NO_BLOCK_FLAGS;
      const rows = await db.selectFrom('block_entries').select(['uid', 'type'])
        .where((eb) => eb.or([
          eb.and([eb('uid', '=', viewerUid), eb('target_uid', '=', otherUid)]),
          eb.and([eb('uid', '=', otherUid), eb('target_uid', '=', viewerUid), eb('type', '=', 'block')]),
        ])).execute();
      const mine = (type: string) => rows.some((r) => Number(r.uid) === viewerUid && r.type === type);
      return { isBlockedByOther: rows.some((r) => Number(r.uid) === otherUid), isBlocked: mine('block'), isHidden: mine('hide') };
    },

    /** Whether the server filters anything for this viewer (their answers are then personal). */
    async filtersFor(viewerUid: number | null): Promise<{ videos: boolean; people: boolean }> {
      if (viewerUid === null) return { videos: false, people: false };
      const rows = await db.selectFrom('block_entries').select('type').distinct()
        .where('uid', '=', viewerUid).where('type', 'in', ['block', 'hide', 'tag']).execute();
      return { videos: rows.length > 0, people: rows.some((r) => r.type === 'block') };
    },
  };
}
export type BlockListService = ReturnType<typeof createBlockListService>;

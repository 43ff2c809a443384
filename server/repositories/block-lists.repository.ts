/** The block lists: one row per entry of a member's lists (blocked and hidden users, tags, keywords, expressions). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BlockListType } from '../../src/lib/validation/block-lists.ts';

/** The lists' keys, as the unique index has them: a keyword case-insensitively, everything else exactly. */
const keyOf = (type: BlockListType) => (type === 'keyword' ? sql<string>`lower(value)` : sql<string>`value`);
const keyValue = (type: BlockListType, value: string) => (type === 'keyword' ? value.toLowerCase() : value);

export function createBlockListsRepository(db: Kysely<Database>) {
  return {
    async userExists(uid: number): Promise<boolean> {
      return !!(await db.selectFrom('users').select('uid').where('uid', '=', uid).executeTakeFirst());
    },

    /** Locks the member's row until the transaction ends (changes to their lists then queue). */
    async lockMember(uid: number): Promise<void> {
      await db.selectFrom('users').select('uid').where('uid', '=', uid).forUpdate().executeTakeFirstOrThrow();
    },

    async hasEntry(uid: number, type: BlockListType, value: string): Promise<boolean> {
      return !!(await db
        .selectFrom('block_entries')
        .select('id')
        .where('uid', '=', uid)
        .where('type', '=', type)
        .where(keyOf(type), '=', keyValue(type, value))
        .executeTakeFirst());
    },

    async countEntries(uid: number, type: BlockListType): Promise<number> {
      const { n } = await db
        .selectFrom('block_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('uid', '=', uid)
        .where('type', '=', type)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    async insertEntry(entry: {
      uid: number;
      type: BlockListType;
      value: string;
      target_uid?: number;
      tag_id?: number;
    }): Promise<void> {
      await db.insertInto('block_entries').values(entry).execute();
    },

    /** Deletes one entry by its key; answers whether there was one. */
    async deleteEntry(uid: number, type: BlockListType, value: string): Promise<boolean> {
      const result = await db
        .deleteFrom('block_entries')
        .where('uid', '=', uid)
        .where('type', '=', type)
        .where(keyOf(type), '=', keyValue(type, value))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** One page of a list, newest first, with the blocked users' names and avatars. */
    pageOfEntries(uid: number, type: BlockListType, page: { limit: number; offset: number }) {
      return db
        .selectFrom('block_entries as b')
        .leftJoin('users as u', 'u.uid', 'b.target_uid')
        .select([
          'b.type',
          'b.value',
          'b.created_at',
          'b.target_uid',
          'b.tag_id',
          'u.username',
          'u.user_nickname',
          'u.avatar',
        ])
        .where('b.uid', '=', uid)
        .where('b.type', '=', type)
        .orderBy('b.created_at', 'desc')
        .orderBy('b.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },

    /** Every entry of `viewerUid` about `otherUid`, and the block `otherUid` may have put on `viewerUid`. */
    entriesBetween(viewerUid: number, otherUid: number) {
      return db
        .selectFrom('block_entries')
        .select(['uid', 'type'])
        .where((eb) =>
          eb.or([
            eb.and([eb('uid', '=', viewerUid), eb('target_uid', '=', otherUid)]),
            eb.and([eb('uid', '=', otherUid), eb('target_uid', '=', viewerUid), eb('type', '=', 'block')]),
          ]),
        )
        .execute();
    },

    /** Which of the given lists the member has anything in. */
    async typesInUse(uid: number, types: readonly BlockListType[]): Promise<BlockListType[]> {
      const rows = await db
        .selectFrom('block_entries')
        .select('type')
        .distinct()
        .where('uid', '=', uid)
        .where('type', 'in', [...types])
        .execute();
      return rows.map((r) => r.type);
    },

    /** The member's keyword and expression entries, as stored. */
    textEntriesOf(uid: number) {
      return db
        .selectFrom('block_entries')
        .select(['type', 'value'])
        .where('uid', '=', uid)
        .where('type', 'in', ['keyword', 'regex'])
        .execute();
    },

    /** The uids the member blocked (whose danmaku and comments they do not see). */
    async blockedUidsOf(uid: number): Promise<number[]> {
      const rows = await db
        .selectFrom('block_entries')
        .select('target_uid')
        .where('uid', '=', uid)
        .where('type', '=', 'block')
        .execute();
      return rows.flatMap((r) => (r.target_uid === null ? [] : [r.target_uid]));
    },

    /** Whether `ownerUid` has blocked `uid`. */
    /** Those of `others` whom `uid` blocked or who blocked `uid` (one query for a window of likes). */
    async blockedEitherWay(uid: number, others: number[]): Promise<Set<number>> {
      if (!others.length) return new Set();
      const rows = await db
        .selectFrom('block_entries')
        .select(['uid', 'target_uid'])
        .where('type', '=', 'block')
        .where((eb) =>
          eb.or([
            eb.and([eb('uid', '=', uid), eb('target_uid', 'in', others)]),
            eb.and([eb('target_uid', '=', uid), eb('uid', 'in', others)]),
          ]),
        )
        .execute();
      return new Set(rows.map((r) => (r.uid === uid ? r.target_uid! : r.uid)));
    },

    async isBlockedBy(ownerUid: number, uid: number): Promise<boolean> {
      return !!(await db
        .selectFrom('block_entries')
        .select('id')
        .where('uid', '=', ownerUid)
        .where('type', '=', 'block')
        .where('target_uid', '=', uid)
        .executeTakeFirst());
    },
  };
}
export type BlockListsRepository = ReturnType<typeof createBlockListsRepository>;

/** Tags and their names: one tag, names in several languages (one default per language). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { likePattern } from '../services/search-text.ts';

export interface NewTagName {
  lang: string;
  name: string;
  nameLower: string;
  isDefault: boolean;
  isOriginal: boolean;
}

export function createTagsRepository(db: Kysely<Database>) {
  return {
    /** Every name of these tags, by tag, language, default first, then name. */
    async namesOf(tagIds: readonly number[]) {
      if (!tagIds.length) return [];
      return db
        .selectFrom('tag_names')
        .selectAll()
        .where('tag_id', 'in', [...tagIds])
        .orderBy('tag_id')
        .orderBy('lang')
        .orderBy('is_default', 'desc')
        .orderBy('name')
        .execute();
    },

    /** The tag that has this (normalized) name in this language. */
    async idWithName(lang: string, nameLower: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('tag_names')
        .select('tag_id')
        .where('lang', '=', lang)
        .where('name_lower', '=', nameLower)
        .executeTakeFirst();
      return row?.tag_id;
    },

    /** Holds the names' lock until the transaction ends: creators of names then queue. */
    async lockNames(): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext('tag_names'))`.execute(db);
    },

    async insertTag(createdBy: number): Promise<number> {
      return (
        await db.insertInto('tags').values({ created_by: createdBy }).returning('tag_id').executeTakeFirstOrThrow()
      ).tag_id;
    },

    async insertNames(tagId: number, names: readonly NewTagName[]): Promise<void> {
      await db
        .insertInto('tag_names')
        .values(
          names.map((n) => ({
            tag_id: tagId,
            lang: n.lang,
            name: n.name,
            name_lower: n.nameLower,
            is_default: n.isDefault,
            is_original: n.isOriginal,
          })),
        )
        .execute();
    },

    /**
     * The tags with a name containing `q` (normalized) in any language: exact names first,
     * then prefixes, then the rest, shorter names first.
     */
    async idsMatching(q: string, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('tag_names')
        .select([
          'tag_id',
          sql<number>`min(CASE WHEN name_lower = ${q} THEN 0 WHEN name_lower LIKE ${likePattern(q, 'prefix')} THEN 1 ELSE 2 END)`.as(
            'rank',
          ),
          sql<number>`min(length(name_lower))`.as('shortest'),
        ])
        .where('name_lower', 'like', likePattern(q, 'contains'))
        .groupBy('tag_id')
        .orderBy('rank')
        .orderBy('shortest')
        .orderBy('tag_id')
        .limit(limit)
        .execute();
      return rows.map((r) => r.tag_id);
    },

    /** The ids among `tagIds` that exist. */
    async existing(tagIds: readonly number[]): Promise<number[]> {
      if (!tagIds.length) return [];
      const rows = await db
        .selectFrom('tags')
        .select('tag_id')
        .where('tag_id', 'in', [...tagIds])
        .execute();
      return rows.map((r) => r.tag_id);
    },
  };
}
export type TagsRepository = ReturnType<typeof createTagsRepository>;

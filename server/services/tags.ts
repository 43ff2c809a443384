import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import type { Tag, TagCreateBody, TagLanguage, TagNameGroup } from '../../src/lib/api/contract.ts';
import { likePattern, normalizeForSearch } from './search-text.ts';

/**
 * Multilingual tags: one tag has names in several languages; videos reference the tag, so a
 * name added later in another language shows on every video at once.
 */
export function createTagService(db: Kysely<Database>) {
  async function tagsById(tagIds: readonly number[]): Promise<Tag[]> {
    if (!tagIds.length) return [];
    const rows = await db.selectFrom('tag_names').selectAll().where('tag_id', 'in', [...tagIds])
      .orderBy('tag_id').orderBy('lang').orderBy('is_default', 'desc').orderBy('name').execute();
    const byTag = new Map<number, Map<TagLanguage, TagNameGroup>>();
    for (const row of rows) {
      const groups = byTag.get(row.tag_id) ?? new Map<TagLanguage, TagNameGroup>();
      byTag.set(row.tag_id, groups);
      const lang = row.lang as TagLanguage;
      const group = groups.get(lang) ?? { lang, tagName: [] };
      groups.set(lang, group);
      group.tagName.push({ name: row.name, isDefault: row.is_default, isOriginalTagName: row.is_original });
    }
    // In the order asked for (a video's tags keep their order); unknown ids are left out.
    return tagIds.filter((id) => byTag.has(id)).map((tagId) => ({ tagId, tagNameList: [...byTag.get(tagId)!.values()] }));
  }

  return {
    tagsById,

    /** video/tag/create: refuses a name that an existing tag already has in the same language. */
    async create(uid: number, body: TagCreateBody): Promise<number> {
      const names = body.tagNameList.flatMap((group) => {
        const unique = new Map<string, { name: string; isDefault: boolean; isOriginal: boolean }>();
        for (const n of group.tagName) {
          const name = n.name.normalize('NFC').trim();
          const key = normalizeForSearch(name);
          if (!unique.has(key)) unique.set(key, { name, isDefault: !!n.isDefault, isOriginal: !!n.isOriginalTagName });
        }
        const list = [...unique.entries()].map(([nameLower, n]) => ({ lang: group.lang, nameLower, ...n }));
        // Exactly one default per language: the one marked, else the first.
        const marked = list.findIndex((n) => n.isDefault);
        list.forEach((n, i) => (n.isDefault = i === (marked === -1 ? 0 : marked)));
        return list;
      });
      if (!names.some((n) => n.isOriginal)) names[0].isOriginal = true;
      return db.transaction().execute(async (trx) => {
        // Serialise creators so two people cannot create the same name at the same moment.
        await sql`SELECT pg_advisory_xact_lock(hashtext('tag_names'))`.execute(trx);
        for (const n of names) {
          const existing = await trx.selectFrom('tag_names').select('tag_id')
            .where('lang', '=', n.lang).where('name_lower', '=', n.nameLower).executeTakeFirst();
          if (existing) throw new AppError('TAG_EXISTS', { extra: { tagId: existing.tag_id } });
        }
        const { tag_id } = await trx.insertInto('tags').values({ created_by: uid }).returning('tag_id').executeTakeFirstOrThrow();
        await trx.insertInto('tag_names').values(names.map((n) => ({
          tag_id, lang: n.lang, name: n.name, name_lower: n.nameLower, is_default: n.isDefault, is_original: n.isOriginal,
        }))).execute();
        return tag_id;
      });
    },

    /**
     * video/tag/search: names in any language; exact names first, then prefixes, then the
     * rest by substring (so one- and two-character Chinese and Japanese queries match too).
     */
    async search(query: string, limit = 20): Promise<Tag[]> {
      const q = normalizeForSearch(query);
      const rows = await db.selectFrom('tag_names')
        .select(['tag_id', sql<number>`min(CASE WHEN name_lower = ${q} THEN 0 WHEN name_lower LIKE ${likePattern(q, 'prefix')} THEN 1 ELSE 2 END)`.as('rank'),
          sql<number>`min(length(name_lower))`.as('shortest')])
        .where('name_lower', 'like', likePattern(q, 'contains'))
        .groupBy('tag_id').orderBy('rank').orderBy('shortest').orderBy('tag_id').limit(limit).execute();
      return tagsById(rows.map((r) => r.tag_id));
    },

    /** The ids that exist among `tagIds` (a commit may only reference real tags). */
    async existing(tagIds: readonly number[]): Promise<number[]> {
      if (!tagIds.length) return [];
      const rows = await db.selectFrom('tags').select('tag_id').where('tag_id', 'in', [...tagIds]).execute();
      return rows.map((r) => r.tag_id);
    },
  };
}
export type TagService = ReturnType<typeof createTagService>;

import type { Repositories } from '../repositories/index.ts';
import { DomainError } from '../domain/errors.ts';
import type { Tag, TagCreateBody, TagNameGroup } from '../../src/lib/api/contracts/video.ts';
import type { TagLanguage } from '../../src/lib/api/contracts/video.constants.ts';
import { normalizeForSearch } from './search-text.ts';

/**
 * Multilingual tags: one tag has names in several languages; videos reference the tag, so a
 * name added later in another language shows on every video at once.
 */
export function createTagService(repositories: Pick<Repositories, 'tags' | 'transaction'>) {
  async function tagsById(tagIds: readonly number[]): Promise<Tag[]> {
    const rows = await repositories.tags.namesOf(tagIds);
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
    return tagIds
      .filter((id) => byTag.has(id))
      .map((tagId) => ({ tagId, tagNameList: [...byTag.get(tagId)!.values()] }));
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
      return repositories.transaction(async ({ tags }) => {
        // Serialise creators so two people cannot create the same name at the same moment.
        await tags.lockNames();
        for (const n of names) {
          const existing = await tags.idWithName(n.lang, n.nameLower);
          if (existing !== undefined) throw new DomainError('TAG_EXISTS', { extra: { tagId: existing } });
        }
        const tagId = await tags.insertTag(uid);
        await tags.insertNames(tagId, names);
        return tagId;
      });
    },

    /**
     * video/tag/search: names in any language; exact names first, then prefixes, then the
     * rest by substring (so one- and two-character Chinese and Japanese queries match too).
     */
    async search(query: string, limit = 20): Promise<Tag[]> {
      return tagsById(await repositories.tags.idsMatching(normalizeForSearch(query), limit));
    },

    /** The ids that exist among `tagIds` (a commit may only reference real tags). */
    existing: (tagIds: readonly number[]): Promise<number[]> => repositories.tags.existing(tagIds),
  };
}
export type TagService = ReturnType<typeof createTagService>;

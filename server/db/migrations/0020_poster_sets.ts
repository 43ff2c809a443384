import type { Kysely } from 'kysely';

/**
 * The token of a media item's poster set (sizes 320/640/1280 in AVIF, WebP and JPEG, named by a
 * hash of the frame); null until made, when lists fall back to the single poster.jpg.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').addColumn('poster_set', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('poster_set').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * Poster sets gained a 960 px size: every set is made again. The sets are forgotten and their
 * finished backfill jobs with them, so the backfill queued at start makes each one anew (lists
 * show poster.jpg until it has; the new set has new names, the old files stay valid meanwhile).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM jobs WHERE kind = 'media.poster-set' AND status <> 'running'`.execute(db);
  await sql`UPDATE media SET poster_set = NULL WHERE poster_set IS NOT NULL AND kind = 'video'`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: the sets made since are valid for the code before too (it reads three of their sizes).
}

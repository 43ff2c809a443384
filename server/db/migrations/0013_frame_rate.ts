import type { Kysely } from 'kysely';

/** The source's frame rate from ffprobe: the master playlist advertises it (FRAME-RATE) and players step frames by it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').addColumn('frame_rate', 'real').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('frame_rate').execute();
}

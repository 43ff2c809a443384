import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE media DROP CONSTRAINT IF EXISTS media_status_check`.execute(db);
  await sql`ALTER TABLE media ADD CONSTRAINT media_status_check
    CHECK (status IN ('uploaded', 'probed', 'transcoding', 'playable', 'ready', 'rejected', 'failed'))`.execute(db);
  // Heights of the HLS rungs published so far (the lowest first), and the storyboard layout.
  await db.schema
    .alterTable('media')
    .addColumn('renditions', sql`integer[]`, (c) => c.notNull().defaultTo(sql`ARRAY[]::integer[]`))
    .addColumn('storyboard', 'jsonb')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('renditions').dropColumn('storyboard').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * A viewer's block lists: blocked and hidden users, tags, keywords and expressions, one row per
 * entry. Users and tags are referenced (an entry goes when they go); keywords and expressions
 * are text. A keyword is unique case-insensitively, everything else exactly.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('block_entries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type IN ('block', 'hide', 'tag', 'keyword', 'regex')`))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('target_uid', 'bigint', (c) => c.references('users.uid').onDelete('cascade'))
    .addColumn('tag_id', 'bigint', (c) => c.references('tags.tag_id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'block_entries_target',
      sql`(type IN ('block', 'hide')) = (target_uid IS NOT NULL) AND (type = 'tag') = (tag_id IS NOT NULL)`,
    )
    .execute();
  await sql`CREATE UNIQUE INDEX block_entries_unique ON block_entries (uid, type, (CASE WHEN type = 'keyword' THEN lower(value) ELSE value END))`.execute(
    db,
  );
  await sql`CREATE INDEX block_entries_listing ON block_entries (uid, type, created_at DESC, id DESC)`.execute(db);
  // "Who blocked this viewer?" (isBlockedByOther).
  await sql`CREATE INDEX block_entries_target ON block_entries (target_uid, uid) WHERE target_uid IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('block_entries').execute();
}

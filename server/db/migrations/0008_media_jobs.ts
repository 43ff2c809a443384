import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A finished upload becomes a media item that the pipeline probes (and later transcodes).
  await db.schema
    .createTable('media')
    .addColumn('media_id', 'text', (c) => c.primaryKey())
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('uploaded').check(sql`status IN ('uploaded', 'probed', 'rejected', 'failed')`),
    )
    .addColumn('reason', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('video_codec', 'text')
    .addColumn('audio_codec', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Durable jobs in the same database: they survive a restart and are retried with back-off.
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('queued').check(sql`status IN ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX jobs_ready ON jobs (status, run_after)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
  await db.schema.dropTable('media').execute();
}

import { sql, type Kysely } from 'kysely';

// Migrations use only features that PostgreSQL 15 (servers) and PGlite (PostgreSQL 17+) share.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('uid', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('user_nickname', 'text')
    .addColumn('roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`ARRAY['user']::text[]`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Usernames are unique case-insensitively.
  await sql`CREATE UNIQUE INDEX users_username_lower ON users (lower(username))`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('uid', 'bigint', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_uid').on('sessions').column('uid').execute();

  await db.schema
    .createTable('videos')
    .addColumn('video_id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('uploader_uid', 'bigint', (c) => c.notNull().references('users.uid'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status IN ('pending', 'approved', 'deleted')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('videos').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}

import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('signature', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('gender', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('interface_language', 'text', (c) => c.notNull().defaultTo('zhs'))
    .addColumn('is_updated_after_review', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // E-mail addresses are unique case-insensitively; users created before accounts have none.
  await sql`CREATE UNIQUE INDEX users_email_lower ON users (lower(email))`.execute(db);

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX verification_codes_lookup ON verification_codes (lower(email), purpose, created_at DESC)`.execute(
    db,
  );

  await db.schema
    .createTable('invitation_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('creator_uid', 'bigint', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('assignee_uid', 'bigint', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('used_at', 'timestamptz')
    .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex('invitation_codes_creator')
    .on('invitation_codes')
    .columns(['creator_uid', 'created_at'])
    .execute();

  // Fixed-window counters for rate limits, shared by every server instance.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('invitation_codes').execute();
  await db.schema.dropTable('verification_codes').execute();
  await sql`DROP INDEX users_email_lower`.execute(db);
  for (const column of [
    'email',
    'password_hash',
    'signature',
    'avatar',
    'gender',
    'interface_language',
    'is_updated_after_review',
    'updated_at',
  ]) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}

import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The server copy of a member's appearance settings, for theme sync (SPEC §3, §4).
  await db.schema
    .createTable('user_settings')
    .addColumn('uid', 'bigint', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
    .addColumn('theme_type', 'text', (c) => c.notNull().defaultTo('system'))
    .addColumn('theme_color', 'text', (c) => c.notNull().defaultTo('wallpaper'))
    .addColumn('theme_color_custom', 'text', (c) => c.notNull().defaultTo('f06e8e'))
    .addColumn('wallpaper', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('colored_side_bar', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Server-wide secrets (upload URL signatures), shared by every instance on this database.
  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_secrets').execute();
  await db.schema.dropTable('user_settings').execute();
}

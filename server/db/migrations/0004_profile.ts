import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('user_birthday', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('labels', sql`text[]`, (c) => c.notNull().defaultTo(sql`ARRAY[]::text[]`))
    .addColumn('website_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website_url', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['user_birthday', 'labels', 'website_name', 'website_url'])
    await db.schema.alterTable('users').dropColumn(column).execute();
}

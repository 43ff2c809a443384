import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The e-mail authenticator: a 6-digit code mailed at each login (the other kind is TOTP).
  await db.schema
    .createTable('email_authenticators')
    .addColumn('uid', 'bigint', (c) => c.primaryKey().references('users.uid').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_authenticators').execute();
}

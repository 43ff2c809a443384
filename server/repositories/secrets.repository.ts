/** Server-wide secrets kept in the database, so that every instance uses the same. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export function createSecretsRepository(db: Kysely<Database>) {
  return {
    /** Stores `value` under `name` unless a secret of that name is already there. */
    async insertIfMissing(name: string, value: string): Promise<void> {
      await db
        .insertInto('app_secrets')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    },

    async valueOf(name: string): Promise<string> {
      return (await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow())
        .value;
    },
  };
}
export type SecretsRepository = ReturnType<typeof createSecretsRepository>;

/** The user_settings table: a row once a member changes a setting. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, UserSettingsTable } from '../db/schema.ts';

export type SettingColumn = Exclude<keyof UserSettingsTable, 'uid' | 'updated_at'>;

export function createSettingsRepository(db: Kysely<Database>) {
  return {
    find: (uid: number): Promise<Selectable<UserSettingsTable> | undefined> =>
      db.selectFrom('user_settings').selectAll().where('uid', '=', uid).executeTakeFirst(),

    /** Writes one setting, creating the member's row if needed. */
    async set(uid: number, column: SettingColumn, value: string | boolean): Promise<void> {
      await db
        .insertInto('user_settings')
        .values({ uid, [column]: value })
        .onConflict((oc) => oc.column('uid').doUpdateSet({ [column]: value, updated_at: new Date() }))
        .execute();
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;

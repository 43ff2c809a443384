import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { UserSettings } from '../../src/lib/api/contract.ts';

const COLUMN: Record<keyof UserSettings, 'theme_type' | 'theme_color' | 'theme_color_custom' | 'wallpaper' | 'colored_side_bar' | 'history_enabled'> = {
  themeType: 'theme_type', themeColor: 'theme_color', themeColorCustom: 'theme_color_custom', wallpaper: 'wallpaper', coloredSideBar: 'colored_side_bar', historyEnabled: 'history_enabled',
};

/** A member's settings; the defaults of SPEC §3 until they change one. */
export async function getUserSettings(db: Kysely<Database>, uid: number): Promise<UserSettings> {
  const row = await db.selectFrom('user_settings').selectAll().where('uid', '=', uid).executeTakeFirst();
  return {
    themeType: (row?.theme_type ?? 'system') as UserSettings['themeType'],
    themeColor: (row?.theme_color ?? 'wallpaper') as UserSettings['themeColor'],
    themeColorCustom: row?.theme_color_custom ?? 'f06e8e',
    wallpaper: row?.wallpaper ?? '',
    coloredSideBar: row?.colored_side_bar ?? false,
    historyEnabled: row?.history_enabled ?? true,
  };
}

export async function updateUserSetting(db: Kysely<Database>, uid: number, change: Partial<UserSettings>): Promise<UserSettings> {
  const [key, value] = Object.entries(change)[0] as [keyof UserSettings, UserSettings[keyof UserSettings]];
  const column = COLUMN[key];
  await db.insertInto('user_settings').values({ uid, [column]: value })
    .onConflict((oc) => oc.column('uid').doUpdateSet({ [column]: value, updated_at: new Date() })).execute();
  return getUserSettings(db, uid);
}

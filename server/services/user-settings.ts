import type { Repositories } from '../repositories/index.ts';
import type { SettingColumn } from '../repositories/settings.repository.ts';
import type { UserSettings } from '../../src/lib/api/contracts/account.ts';

const COLUMN: Record<keyof UserSettings, SettingColumn> = {
  themeType: 'theme_type',
  themeColor: 'theme_color',
  themeColorCustom: 'theme_color_custom',
  wallpaper: 'wallpaper',
  coloredSideBar: 'colored_side_bar',
  historyEnabled: 'history_enabled',
};

/** A member's settings; the defaults of SPEC §3 until they change one. */
export async function getUserSettings(
  repositories: Pick<Repositories, 'userSettings'>,
  uid: number,
): Promise<UserSettings> {
  const row = await repositories.userSettings.find(uid);
  return {
    themeType: (row?.theme_type ?? 'system') as UserSettings['themeType'],
    themeColor: (row?.theme_color ?? 'wallpaper') as UserSettings['themeColor'],
    themeColorCustom: row?.theme_color_custom ?? 'f06e8e',
    wallpaper: row?.wallpaper ?? '',
    coloredSideBar: row?.colored_side_bar ?? false,
    historyEnabled: row?.history_enabled ?? true,
  };
}

export async function updateUserSetting(
  repositories: Pick<Repositories, 'userSettings'>,
  uid: number,
  change: Partial<UserSettings>,
): Promise<UserSettings> {
  const [key, value] = Object.entries(change)[0] as [keyof UserSettings, UserSettings[keyof UserSettings]];
  await repositories.userSettings.set(uid, COLUMN[key], value);
  return getUserSettings(repositories, uid);
}

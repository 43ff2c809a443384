import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { $appSettings, DEFAULT_APP_SETTINGS, PREFERENCE_SWITCHES } from '../../lib/stores/app-settings.ts';
import { SwitchList } from './SwitchList.tsx';

/** Settings > Preference: how videos open, how dates read, the guest avatar, the data saver. */
export default function PreferenceSettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  return (
    <SwitchList
      t={t}
      store={$appSettings}
      defaults={DEFAULT_APP_SETTINGS}
      keys={PREFERENCE_SWITCHES}
      prefix="preference"
      name="preference"
    />
  );
}

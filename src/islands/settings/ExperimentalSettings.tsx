import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { $experimental, DEFAULT_EXPERIMENTAL, EXPERIMENTAL_FLAGS } from '../../lib/stores/experimental.ts';
import { SwitchList } from './SwitchList.tsx';

/** Settings > Experimental: features not yet the default, each a real switch. */
export default function ExperimentalSettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  return (
    <>
      <p className="field-hint">{t('experimental.intro')}</p>
      <SwitchList
        t={t}
        store={$experimental}
        defaults={DEFAULT_EXPERIMENTAL}
        keys={EXPERIMENTAL_FLAGS}
        prefix="experimental"
        name="experimental"
      />
    </>
  );
}

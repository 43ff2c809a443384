import { useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useHydratedStore } from '../use-hydrated-store.ts';
import { useOnline } from '../use-online.ts';
import { $installState, promptInstall } from '../../lib/stores/install-prompt.ts';

/** Settings > About: install Kiraboshi as an app (the browser's prompt when it offers one), and whether it works offline. */
export default function InstallApp({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const state = useHydratedStore($installState, 'unknown');
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  return (
    <section className="card install-app" aria-labelledby="install-title" data-install-state={state}>
      <h2 id="install-title">{t('install.title')}</h2>
      <p>{t('install.body')}</p>
      <p className="field-hint">{t(`install.state.${state}`)}</p>
      {state === 'available' && (
        <button
          type="button"
          className="button"
          disabled={busy}
          data-install-button
          onClick={() => {
            setBusy(true);
            void promptInstall().finally(() => setBusy(false));
          }}
        >
          {t('install.button')}
        </button>
      )}
      <p className="field-hint" data-connection={online ? 'online' : 'offline'}>
        {t(online ? 'install.online' : 'install.offline')}
      </p>
    </section>
  );
}

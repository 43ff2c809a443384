import { useEffect, useState } from 'react';
import { getUserSettings, updateUserSettings } from '../../lib/api/index.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import '../../styles/switch.css';

/** Settings > Privacy: whether the server records the member's watch history (historyEnabled). */
export default function PrivacySettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const uid = self.userInfo?.uid;
  const [historyEnabled, setHistoryEnabled] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!uid) return;
    getUserSettings().then(
      (r) => setHistoryEnabled(r.userSettings.historyEnabled),
      () => showToast({ message: t('privacy.loadFailed'), severity: 'error' }),
    );
  }, [uid, t]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!uid)
    return (
      <div className="card" data-privacy-state="guest">
        <p>{t('privacy.guest')}</p>
      </div>
    );

  const change = async (value: boolean) => {
    setSaving(true);
    setHistoryEnabled(value);
    try {
      const r = await updateUserSettings({ historyEnabled: value });
      setHistoryEnabled(r.userSettings.historyEnabled);
      showToast({ message: t('privacy.saved'), severity: 'success' });
    } catch {
      setHistoryEnabled(!value);
      showToast({ message: t('privacy.saveFailed'), severity: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card privacy-settings" data-privacy-state={historyEnabled === null ? 'loading' : 'ready'}>
      <label className="switch-row">
        <span className="switch-text">
          <span className="field-label">{t('privacy.recordHistory')}</span>
          <span className="field-hint">{t('privacy.recordHistoryHint')}</span>
        </span>
        <input
          type="checkbox"
          role="switch"
          className="switch"
          checked={historyEnabled ?? false}
          disabled={historyEnabled === null || saving}
          onChange={(e) => void change(e.target.checked)}
          data-history-switch
        />
      </label>
    </section>
  );
}

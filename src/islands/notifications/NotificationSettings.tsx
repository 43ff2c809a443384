import { useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  STAFF_ONLY_KINDS,
  type NotificationChannel,
  type NotificationKind,
} from '../../lib/notifications/kinds.ts';
import { can } from '../../lib/policy/policy.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import './notifications.css';

/** Settings > Notifications: for each kind, on the site, also in the hourly e-mail digest, or off. */
export default function NotificationSettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const uid = self.userInfo?.uid;
  const [settings, setSettings] = useState<Record<NotificationKind, NotificationChannel> | null>(null);

  useEffect(() => {
    if (!uid) return;
    call('GET notification/settings', undefined).then(
      (r) => setSettings(r.settings),
      () => showToast({ message: t('notifications.ui.loadFailed'), severity: 'error' }),
    );
  }, [uid, t]);

  if (!self.isEffectiveCheckOnce || (uid && !settings))
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!uid || !settings) return null;
  const kinds = NOTIFICATION_KINDS.filter(
    (kind) => !STAFF_ONLY_KINDS.includes(kind) || can(self.userInfo, 'notification.staffKinds'),
  );

  const change = async (kind: NotificationKind, channel: NotificationChannel) => {
    const before = settings;
    setSettings({ ...settings, [kind]: channel });
    try {
      setSettings((await call('POST notification/settings', { kind, channel })).settings);
      showToast({ message: t('notifications.ui.saved'), severity: 'success' });
    } catch {
      setSettings(before);
      showToast({ message: t('notifications.ui.loadFailed'), severity: 'error' });
    }
  };

  return (
    <section className="card notification-settings" data-notification-settings>
      <p className="field-hint">{t('notifications.ui.settingsHint')}</p>
      {kinds.map((kind) => (
        <label key={kind} className="notification-setting">
          <span className="field-label">{t(`notifications.kinds.${kind}`)}</span>
          <select
            value={settings[kind]}
            onChange={(e) => void change(kind, e.target.value as NotificationChannel)}
            data-kind={kind}
          >
            {NOTIFICATION_CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {t(`notifications.channels.${channel}`)}
              </option>
            ))}
          </select>
        </label>
      ))}
    </section>
  );
}

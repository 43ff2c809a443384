import { useEffect, useState } from 'react';
import { getMyInvitationCodes } from '../../lib/api/index.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import type { Messages } from '../../lib/i18n/translate.ts';

/** Settings > Dashboard: the member's account at a glance, with links to change each part. */
export default function Dashboard({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const { isEffectiveCheckOnce, userInfo } = useSelfUser();
  const [invitations, setInvitations] = useState<{ made: number; used: number } | null>(null);
  useEffect(() => {
    if (!userInfo) return;
    void getMyInvitationCodes().then(({ invitationCodeResult: codes }) =>
      setInvitations({ made: codes.length, used: codes.filter((c) => c.usedDateTime).length }),
    );
  }, [userInfo?.uid]);

  if (!isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!userInfo)
    return (
      <div className="card">
        <p>{t('validation.notLoggedIn')}</p>
      </div>
    );
  const link = (page: string) => <a href={localizePath(`/settings/${page}`, locale)}>{t('dashboard.manage')}</a>;
  const rows: Array<[string, string, React.ReactNode?]> = [
    [
      t('dashboard.uid'),
      String(userInfo.uid),
      // biome-ignore lint/correctness/useJsxKeyInIterable: the cells of one row, rendered by position, not a list
      <a href={localizePath(`/user/${userInfo.uid}`, locale)}>{t('nav.user')}</a>,
    ],
    [t('dashboard.email'), userInfo.email ?? '', link('security')],
    [t('dashboard.roles'), userInfo.roles.map((r) => t(`dashboard.role.${r}`)).join(', ')],
    [t('dashboard.joined'), new Date(userInfo.userCreateDateTime).toLocaleDateString(LOCALE_INFO[locale].htmlLang)],
    [
      t('dashboard.twoFactor'),
      t(`dashboard.${{ none: 'none', totp: 'totp', email: 'byEmail' }[userInfo.authenticatorType]}`),
      link('security'),
    ],
    [
      t('dashboard.invitations'),
      invitations ? t('dashboard.invitationCount', invitations) : '…',
      link('invitation-code'),
    ],
  ];
  return (
    <section className="card" data-dashboard>
      <h2>{t('dashboard.account')}</h2>
      <dl className="dashboard-list">
        {rows.map(([label, value, action]) => (
          <div key={label} className="dashboard-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
            <dd className="dashboard-action">{action}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

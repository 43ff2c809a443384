import { useEffect, useState } from 'react';
import { createInvitationCode, getMyInvitationCodes } from '../../lib/api/index.ts';
import type { InvitationCode } from '../../lib/api/contracts/account.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useAction } from './use-action.ts';
import type { Messages } from '../../lib/i18n/translate.ts';

/** Settings > Invitation codes: the member's codes, and a new one (the server applies the 7-day rules). */
export default function InvitationCodes({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [codes, setCodes] = useState<InvitationCode[] | null>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const date = (ms: number) => new Date(ms).toLocaleDateString(LOCALE_INFO[locale].htmlLang);

  useEffect(() => {
    if (self.isLogined) void getMyInvitationCodes().then((r) => setCodes(r.invitationCodeResult));
  }, [self.isLogined]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!self.isLogined)
    return (
      <div className="card">
        <p>{t('validation.notLoggedIn')}</p>
      </div>
    );

  const create = () =>
    run(async () => {
      const { invitationCodeResult } = await createInvitationCode();
      setCodes((list) => [invitationCodeResult, ...(list ?? [])]);
      showToast({
        message: t('invitation.created', { code: invitationCodeResult.invitationCode }),
        severity: 'success',
        duration: 4000,
      });
    });
  const copy = async (code: string) => {
    await navigator.clipboard?.writeText(code).catch(() => {});
    showToast({ message: t('invitation.copied'), severity: 'success' });
  };

  return (
    <section className="card admin-list" data-invitation-codes>
      <p>{t('invitation.intro')}</p>
      <div>
        <button type="button" className="button" disabled={busy} onClick={() => void create()}>
          {t('invitation.create')}
        </button>
      </div>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {codes?.length === 0 && <p className="field-hint">{t('invitation.empty')}</p>}
      <ul className="review-items">
        {codes?.map((c) => (
          <li key={c.invitationCode} className="review-item">
            <div>
              <code className="invitation-code">{c.invitationCode}</code>
              <p className="user-meta">
                {t('invitation.madeOn', { date: date(c.generationDateTime) })} ·{' '}
                {c.usedDateTime ? t('invitation.used', { date: date(c.usedDateTime) }) : t('invitation.unused')}
              </p>
            </div>
            {c.isPending && (
              <button type="button" className="button secondary" onClick={() => void copy(c.invitationCode)}>
                {t('invitation.copy')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

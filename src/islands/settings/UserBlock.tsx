import { useEffect, useState, type FormEvent } from 'react';
import { getBlockedUsers, updateUserRoles } from '../../lib/api/index.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { parseUid } from '../../lib/validation/ids.ts';
import { localizePath, LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useAction, FormError } from './use-action.ts';
import FormFields from './FormFields.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import type { ApiOutput } from '../../lib/api/client.ts';

type Banned = ApiOutput<'GET user/blocked/info'>['result'];

/** Settings > Banned users (administrators): ban by UID, and lift bans. */
export default function UserBlock({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const [uidInput, setUidInput] = useState('');
  const [banned, setBanned] = useState<Banned>([]);
  const { busy, ready, error, run } = useAction(t('api.internal'));
  const load = async () => setBanned((await getBlockedUsers(1, 100)).result);
  useEffect(() => void run(load), []);

  const ban = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const parsed = parseUid(uidInput);
      if (!parsed.ok) throw new FormError(t(`validation.${parsed.code}`));
      await updateUserRoles(parsed.id, ['blocked']);
      showToast({ message: t('admin.banned', { uid: parsed.id }), severity: 'success' });
      setUidInput('');
      await load();
    });
  };
  const unban = (uid: number) =>
    run(async () => {
      await updateUserRoles(uid, ['user']);
      showToast({ message: t('admin.unbanned', { uid }), severity: 'success' });
      await load();
    });

  return (
    <section className="card admin-list" data-user-block>
      <form className="code-row" onSubmit={ban}>
        <FormFields ready={ready}>
          <label className="field">
            <span className="field-label">{t('admin.banUid')}</span>
            <input
              name="uid"
              inputMode="numeric"
              required
              value={uidInput}
              onChange={(e) => setUidInput(e.target.value)}
            />
          </label>
          <button type="submit" className="button" disabled={busy}>
            {t('admin.ban')}
          </button>
        </FormFields>
      </form>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {banned.length === 0 && <p className="field-hint">{t('admin.noBanned')}</p>}
      <ul className="review-items">
        {banned.map((u) => (
          <li key={u.uid} className="review-item" data-uid={u.uid}>
            <div>
              <a href={localizePath(`/user/${u.uid}`, locale)}>
                <strong>{u.userNickname || u.username}</strong>
              </a>{' '}
              <span className="user-meta">UID {u.uid}</span>
              <p className="user-meta">
                {t('admin.bannedSince', {
                  date: new Date(u.editDateTime).toLocaleDateString(LOCALE_INFO[locale].htmlLang),
                })}
              </p>
            </div>
            <button type="button" className="button secondary" disabled={busy} onClick={() => void unban(u.uid)}>
              {t('admin.unban')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

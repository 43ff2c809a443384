import { useEffect, useState } from 'react';
import { getReviewQueue, approveUserInfo, clearUserInfo } from '../../lib/api/index.ts';
import type { ApiOutput } from '../../lib/api/client.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useAction } from './use-action.ts';
import Pager from './Pager.tsx';
import RoleEditor from './RoleEditor.tsx';
import { useSelfUser } from '../use-self-user.ts';
import type { Messages } from '../../lib/i18n/translate.ts';

const PAGE_SIZE = 20;

/** Settings > Profile review (administrators): the queue, with approve and clear, and each user's roles. */
export default function UserReview({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const [onlyUpdated, setOnlyUpdated] = useState(true);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<ApiOutput<'GET user/adminGetUserInfo'> | null>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const { userInfo } = useSelfUser();
  const rolesChanged = (uid: number, roles: string[]) =>
    setData((d) => d && { ...d, result: d.result.map((u) => (u.uid === uid ? { ...u, roles } : u)) });

  const load = () =>
    run(async () =>
      setData(await getReviewQueue({ isOnlyShowUserInfoUpdatedAfterReview: onlyUpdated, page, pageSize: PAGE_SIZE })),
    );
  useEffect(() => void load(), [onlyUpdated, page]);

  const act = (uid: number, kind: 'approve' | 'clear') =>
    run(async () => {
      if (kind === 'clear' && !window.confirm(t('admin.confirmClear'))) return;
      await (kind === 'approve' ? approveUserInfo(uid) : clearUserInfo(uid));
      showToast({ message: t(kind === 'approve' ? 'admin.approved' : 'admin.cleared'), severity: 'success' });
      await getReviewQueue({ isOnlyShowUserInfoUpdatedAfterReview: onlyUpdated, page, pageSize: PAGE_SIZE }).then(
        setData,
      );
    });
  const pages = Math.max(1, Math.ceil((data?.totalCount ?? 0) / PAGE_SIZE));

  return (
    <section className="card admin-list" data-review-queue>
      <label className="check">
        <input
          type="checkbox"
          checked={onlyUpdated}
          onChange={(e) => {
            setOnlyUpdated(e.target.checked);
            setPage(1);
          }}
        />{' '}
        {t('admin.onlyUpdated')}
      </label>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {data && data.result.length === 0 && <p className="field-hint">{t('admin.empty')}</p>}
      <ul className="review-items">
        {data?.result.map((u) => (
          <li key={u.uid} className="review-item" data-uid={u.uid}>
            <div>
              <a href={localizePath(`/user/${u.uid}`, locale)}>
                <strong>{u.userNickname || u.username}</strong>
              </a>{' '}
              <span className="user-meta">
                @{u.username} · UID {u.uid}
              </span>
              <span className="tag-chip">{u.isUpdatedAfterReview ? t('admin.pending') : t('admin.reviewed')}</span>
              {u.signature && <p className="user-signature">{u.signature}</p>}
              {u.label.length > 0 && (
                <ul className="user-tags">
                  {u.label.map((l) => (
                    <li key={l.id}>{l.labelName}</li>
                  ))}
                </ul>
              )}
              {u.userWebsite.websiteUrl && (
                <p className="user-meta">
                  {u.userWebsite.websiteName} {u.userWebsite.websiteUrl}
                </p>
              )}
              <RoleEditor
                t={t}
                actor={userInfo}
                uid={u.uid}
                name={u.userNickname || u.username}
                roles={u.roles}
                onChanged={(roles) => rolesChanged(u.uid, roles)}
              />
            </div>
            <div className="review-actions">
              <button type="button" className="button" disabled={busy} onClick={() => void act(u.uid, 'approve')}>
                {t('admin.approve')}
              </button>
              <button
                type="button"
                className="button secondary"
                disabled={busy}
                onClick={() => void act(u.uid, 'clear')}
              >
                {t('admin.clear')}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <Pager t={t} page={page} pages={pages} busy={busy} onPage={setPage} />
    </section>
  );
}

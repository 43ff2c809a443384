import { useEffect, useMemo, useState } from 'react';
import { clearHistory, getHistory, getUserSettings } from '../../lib/api/index.ts';
import type { HistoryItem } from '../../lib/api/contracts/history.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { audioPath, formatClock, groupByDay, watchedFraction } from '../../lib/catalogue/format.ts';
import { LoginPrompt } from '../auth/LoginPrompt.tsx';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { VideoCard, VideoGrid } from '../../components/VideoList.tsx';
import { photoPostPath } from '../../lib/photo/picture.ts';

const FILTER_DELAY_MS = 300;

/** /history: the member's views grouped by day, with the position reached, a title filter and clear-all. */
export default function HistoryPage({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const uid = self.userInfo?.uid;
  const [filter, setFilter] = useState('');
  const [show, setShow] = useState<'all' | 'liked'>('all');
  const [items, setItems] = useState<HistoryItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [recording, setRecording] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);

  useEffect(() => {
    if (!uid) return;
    void getUserSettings().then(
      (r) => setRecording(r.userSettings.historyEnabled),
      () => undefined,
    );
  }, [uid]);

  // The filter asks the server (history/filter?videoTitle), debounced while typing.
  useEffect(() => {
    if (!uid) return;
    let live = true;
    const timer = setTimeout(
      () => {
        // A failed call answers SPEC §8's fallback (success false): the page says so in the reader's language.
        void getHistory(filter, show).then((r) => {
          if (!live) return;
          if (!r.success) return setFailed(true);
          setItems(r.result);
          setFailed(false);
        });
      },
      items === null ? 0 : FILTER_DELAY_MS,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the filter and the member start a query
  }, [uid, filter, show]);

  const groups = useMemo(() => groupByDay(items ?? [], (i) => i.lastUpdateDateTime, locale), [items, locale]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!uid) {
    return (
      <LoginPrompt message={t('history.guest')} action={t('history.login')} state={{ 'data-history-state': 'guest' }} />
    );
  }

  const clearAll = async () => {
    setClearing(true);
    try {
      await clearHistory();
      setItems([]);
      setConfirming(false);
      showToast({ message: t('history.cleared'), severity: 'success' });
    } catch {
      showToast({ message: t('history.clearFailed'), severity: 'error' });
    } finally {
      setClearing(false);
    }
  };

  return (
    <div className="history-page" data-history-state={items === null ? 'loading' : 'ready'}>
      {!recording && (
        <p className="card history-off" data-history-off>
          {t('history.off')} <a href={localizePath('/settings/privacy', locale)}>{t('history.privacyLink')}</a>
        </p>
      )}
      <div className="history-toolbar">
        <label className="field">
          <input
            type="search"
            value={filter}
            maxLength={100}
            placeholder={t('history.filterPlaceholder')}
            aria-label={t('history.filterLabel')}
            onChange={(e) => setFilter(e.target.value)}
            data-history-filter
          />
        </label>
        <div className="comments-sort history-show" role="group" aria-label={t('conversation.historyShow')}>
          {(['all', 'liked'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className="comment-sort"
              aria-pressed={show === option}
              onClick={() => setShow(option)}
              data-history-show={option}
            >
              {option === 'all' ? t('conversation.historyAll') : t('conversation.historyLiked')}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button secondary"
          disabled={!items?.length || confirming}
          onClick={() => setConfirming(true)}
          data-history-clear
        >
          {t('history.clear')}
        </button>
      </div>
      {confirming && (
        <div className="card history-confirm" role="alertdialog" aria-labelledby="history-confirm-text">
          <p id="history-confirm-text">{t('history.clearConfirm')}</p>
          <div className="history-confirm-actions">
            <button type="button" className="button secondary" onClick={() => setConfirming(false)}>
              {t('history.cancel')}
            </button>
            <button
              type="button"
              className="button danger"
              disabled={clearing}
              onClick={() => void clearAll()}
              data-history-clear-confirm
            >
              {t('history.confirmClear')}
            </button>
          </div>
        </div>
      )}
      {failed ? (
        <p className="card list-error" role="alert">
          {t('history.loadFailed')}
        </p>
      ) : items === null ? (
        <p className="card list-empty" aria-busy="true">
          …
        </p>
      ) : !items.length ? (
        <p className="card list-empty" data-state="empty">
          {filter.trim()
            ? t('history.noMatch', { title: filter.trim() })
            : show === 'liked'
              ? t('conversation.historyNoLiked')
              : t('history.empty')}
        </p>
      ) : (
        groups.map((group) => (
          <section key={`${group.kind}${group.label}`} className="history-day" data-history-day={group.kind}>
            <h2 className="history-day-title">{group.kind === 'date' ? group.label : t(`history.${group.kind}`)}</h2>
            <VideoGrid>
              {group.items.map((item) => (
                <li key={`${item.category}${item.id}`}>
                  {item.category === 'photo' ? (
                    <VideoCard video={item} locale={locale} t={t} href={photoPostPath(item.id, locale)} />
                  ) : (
                    <VideoCard
                      video={item}
                      locale={locale}
                      t={t}
                      progress={watchedFraction(item.anchor, item.duration)}
                      href={item.category === 'audio' ? audioPath(item.id, locale) : undefined}
                      extra={
                        <p className="history-anchor">{t('history.watchedTo', { time: formatClock(item.anchor) })}</p>
                      }
                    />
                  )}
                </li>
              ))}
            </VideoGrid>
          </section>
        ))
      )}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import type { ApiOutput } from '../../lib/api/client.ts';
import {
  REPORT_ACTIONS,
  REPORT_TARGET_TYPES,
  type ReportAction,
  type ReportTargetType,
} from '../../lib/api/contracts/moderation.constants.ts';
import type { ReportItem } from '../../lib/api/contracts/moderation.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useAction } from '../settings/use-action.ts';
import '../settings/block-and-hide.css';
import './moderation.css';

type Status = 'open' | 'resolved';
const PAGE_SIZE = 20;
/** Dismissing is the mild choice; deleting and banning cannot be taken back. */
const ACTION_LOOK: Record<ReportAction, string> = { dismiss: 'secondary', hide: '', delete: 'danger', ban: 'danger' };

/** Where the reported item lives on the site (a danmaku at its moment). */
function itemPath(report: ReportItem, locale: Locale): string | null {
  const { context } = report;
  const media = (type: string | undefined, id: number | undefined, time?: number) =>
    type && id
      ? localizePath(`/${type}/${type === 'video' ? 'kv' : type === 'audio' ? 'ka' : 'kp'}${id}`, locale) +
        (time === undefined ? '' : `?t=${Math.floor(time)}`)
      : null;
  if (report.targetType === 'user') return localizePath(`/user/${report.targetId}`, locale);
  if (report.targetType === 'video' || report.targetType === 'audio' || report.targetType === 'photo')
    return media(report.targetType, report.targetId);
  return media(context.mediaType, context.mediaId, report.targetType === 'danmaku' ? context.time : undefined);
}

/** Settings > Reports (staff): the queue, each report with the item in its context, resolved with an action and a note. */
export default function ReportQueue({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const [status, setStatus] = useState<Status>('open');
  const [targetType, setTargetType] = useState<ReportTargetType | ''>('');
  const [list, setList] = useState<ApiOutput<'GET report/list'> | null>(null);
  const [notes, setNotes] = useState<Record<number, string>>({});
  const { busy, error, run } = useAction(t('moderation.queue.failed'));
  const load = async (cursor?: string) => {
    const page = await call('GET report/list', {
      status,
      pageSize: PAGE_SIZE,
      ...(targetType ? { targetType } : {}),
      ...(cursor ? { cursor } : {}),
    });
    setList((shown) => (cursor && shown ? { ...page, reports: [...shown.reports, ...page.reports] } : page));
  };
  useEffect(() => void run(() => load()), [status, targetType]);
  const time = (ms: number) => new Date(ms).toLocaleString(LOCALE_INFO[locale].htmlLang);
  const resolve = (report: ReportItem, action: ReportAction) =>
    run(async () => {
      const { resolvedReports } = await call('POST report/resolve', {
        reportId: report.reportId,
        action,
        note: notes[report.reportId] ?? '',
      });
      showToast({
        message: t('moderation.queue.resolvedToast', {
          count: resolvedReports,
          action: t(`moderation.actions.${action}`),
        }),
        severity: 'success',
      });
      await load();
    });

  return (
    <section className="card admin-list report-queue" data-report-queue>
      <div className="block-tabs" role="tablist" aria-label={t('moderation.queue.status')}>
        {(['open', 'resolved'] as const).map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={status === s}
            className="block-tab"
            onClick={() => setStatus(s)}
            data-report-tab={s}
          >
            {t(`moderation.queue.${s}`)}
          </button>
        ))}
        <label className="report-filter">
          {t('moderation.queue.kind')}
          <select
            value={targetType}
            onChange={(event) => setTargetType(event.target.value as ReportTargetType | '')}
            data-report-filter
          >
            <option value="">{t('moderation.queue.allKinds')}</option>
            {REPORT_TARGET_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`moderation.targets.${type}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {list && list.reports.length === 0 && <p className="field-hint">{t('moderation.queue.empty')}</p>}
      <ul className="review-items">
        {list?.reports.map((report) => {
          const path = itemPath(report, locale);
          const { context } = report;
          return (
            <li
              key={report.reportId}
              className="review-item report-item"
              data-report={report.reportId}
              data-report-type={report.targetType}
            >
              <p className="report-head">
                <span className="report-kind">{t(`moderation.targets.${report.targetType}`)}</span>
                <strong className="report-reason">{t(`moderation.reasons.${report.reason}`)}</strong>
                <span className="user-meta report-by">
                  {t('moderation.queue.by', { name: report.reporter.username, time: time(report.createdDateTime) })}
                </span>
              </p>
              {report.text && <blockquote className="report-words">{report.text}</blockquote>}
              <div className="report-context" data-report-context>
                {report.targetType === 'danmaku' && (
                  <p>
                    <span className="report-moment">{formatTimecode(context.time ?? 0)}</span> <q>{context.text}</q>
                  </p>
                )}
                {report.targetType === 'comment' && (
                  <ol className="report-thread">
                    {context.thread?.map((c) => (
                      <li
                        key={c.floor}
                        className={c.reported ? 'reported' : undefined}
                        aria-current={c.reported ? 'true' : undefined}
                      >
                        <span className="user-meta">
                          #{c.floor} {c.username}
                        </span>{' '}
                        {c.deleted ? (
                          <em>{t('moderation.queue.deletedComment')}</em>
                        ) : (
                          <span>{c.text.replace(/<[^>]*>/g, '')}</span>
                        )}
                      </li>
                    ))}
                  </ol>
                )}
                {context.title && <p>{context.title}</p>}
                {context.username && <p>@{context.username}</p>}
                <p className="user-meta">
                  {context.visible ? t('moderation.queue.visible') : t('moderation.queue.notVisible')}
                  {path && (
                    <>
                      {' '}
                      ·{' '}
                      <a href={path} target="_blank" rel="noopener">
                        {t('moderation.queue.openItem')}
                      </a>
                    </>
                  )}
                </p>
              </div>
              {report.status === 'open' ? (
                <div className="report-resolve">
                  <input
                    type="text"
                    className="report-note"
                    value={notes[report.reportId] ?? ''}
                    placeholder={t('moderation.queue.note')}
                    aria-label={t('moderation.queue.note')}
                    maxLength={1000}
                    onChange={(event) => setNotes({ ...notes, [report.reportId]: event.target.value })}
                  />
                  <div className="report-actions">
                    {REPORT_ACTIONS.filter((action) => !(action === 'delete' && report.targetType === 'user')).map(
                      (action) => (
                        <button
                          key={action}
                          type="button"
                          className={`button ${ACTION_LOOK[action]}`}
                          disabled={busy}
                          onClick={() => void resolve(report, action)}
                          data-report-action={action}
                        >
                          {t(`moderation.actions.${action}`)}
                        </button>
                      ),
                    )}
                  </div>
                </div>
              ) : (
                <p className="user-meta report-outcome">
                  {t('moderation.queue.outcome', { action: t(`moderation.actions.${report.action}`) })}
                  {report.note ? ` · ${report.note}` : ''}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      {list?.nextCursor && (
        <button
          type="button"
          className="button secondary"
          disabled={busy}
          onClick={() => void run(() => load(list.nextCursor!))}
        >
          {t('moderation.queue.more')}
        </button>
      )}
    </section>
  );
}

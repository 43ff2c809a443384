import { useEffect, useState } from 'react';
import { getJobs, retryJob } from '../../lib/api/index.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useAction } from './use-action.ts';
import Pager from './Pager.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import type { ApiOutput } from '../../lib/api/client.ts';
import './block-and-hide.css';
import './jobs.css';

type JobList = ApiOutput<'GET admin/jobs'>;
type Status = JobList['jobs'][number]['status'];
const STATES: readonly Status[] = ['failed', 'queued', 'running', 'done'];
const PAGE_SIZE = 20;
const KNOWN_KINDS = ['media.probe', 'media.transcode', 'media.frame-rate'];

/** Settings > Media jobs (administrators): jobs by state with their counts and errors; failed ones can be retried. */
export default function Jobs({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const [status, setStatus] = useState<Status>('failed');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<JobList | null>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const load = async (s = status, p = page) => setList(await getJobs(s, p, PAGE_SIZE));
  useEffect(() => void run(() => load(status, page)), [status, page]);

  const time = (ms: number) => new Date(ms).toLocaleString(LOCALE_INFO[locale].htmlLang);
  const retry = (jobId: number) =>
    run(async () => {
      await retryJob(jobId);
      showToast({ message: t('jobs.retried', { id: jobId }), severity: 'success' });
      await load();
    });
  const pages = Math.max(1, Math.ceil((list?.totalCount ?? 0) / PAGE_SIZE));

  return (
    <section className="card admin-list jobs" data-jobs>
      <p className="field-hint jobs-intro">{list ? t('jobs.intro', { max: list.maxAttempts }) : '\u00a0'}</p>
      <div className="block-tabs" role="tablist" aria-label={t('jobs.states')}>
        {STATES.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            id={`jobs-tab-${s}`}
            aria-controls="jobs-panel"
            aria-selected={status === s}
            className="block-tab"
            data-jobs-tab={s}
            onClick={() => {
              setStatus(s);
              setPage(1);
            }}
          >
            {t(`jobs.status.${s}`)} <span className="jobs-count">{list?.counts[s] ?? '…'}</span>
          </button>
        ))}
      </div>
      <div id="jobs-panel" role="tabpanel" aria-labelledby={`jobs-tab-${status}`} className="block-panel">
        {error && (
          <p className="auth-error" role="alert">
            {error}
          </p>
        )}
        {list && list.jobs.length === 0 && <p className="field-hint">{t(`jobs.empty.${status}`)}</p>}
        <ul className="review-items">
          {list?.jobs.map((job) => (
            <li key={job.id} className="review-item jobs-item" data-job={job.id}>
              <div className="jobs-main">
                <p>
                  <strong>{KNOWN_KINDS.includes(job.kind) ? t(`jobs.kind.${job.kind}`) : job.kind}</strong>{' '}
                  <span className="user-meta">#{job.id}</span>
                </p>
                <p className="user-meta">
                  {t('jobs.attempts', { attempts: job.attempts, max: list.maxAttempts })} ·{' '}
                  {t('jobs.created', { time: time(job.createdDateTime) })}
                  {job.status === 'queued' && job.runAfterDateTime > Date.now() && (
                    <> · {t('jobs.nextAttempt', { time: time(job.runAfterDateTime) })}</>
                  )}
                  {job.status === 'running' && job.lockedUntilDateTime && (
                    <> · {t('jobs.leaseUntil', { time: time(job.lockedUntilDateTime) })}</>
                  )}
                </p>
                {job.mediaId && (
                  <p className="user-meta">
                    {t('jobs.media')} <code>{job.mediaId}</code>
                  </p>
                )}
                {job.lastError && (
                  <div className="jobs-error">
                    <span className="field-label">{t('jobs.lastError')}</span>
                    <pre>{job.lastError}</pre>
                  </div>
                )}
              </div>
              {job.status === 'failed' && (
                <button
                  type="button"
                  className="button secondary"
                  disabled={busy}
                  onClick={() => void retry(job.id)}
                  aria-label={t('jobs.retryLabel', { id: job.id })}
                >
                  {t('jobs.retry')}
                </button>
              )}
            </li>
          ))}
        </ul>
        {pages > 1 && <Pager t={t} page={page} pages={pages} busy={busy} onPage={setPage} />}
      </div>
    </section>
  );
}

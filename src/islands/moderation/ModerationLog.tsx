import { useEffect, useState } from 'react';
import { call, type ApiOutput } from '../../lib/api/client.ts';
import { STAFF_ACTIONS, type StaffAction } from '../../lib/api/contracts/moderation.constants.ts';
import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useAction } from '../settings/use-action.ts';
import '../settings/block-and-hide.css';
import './moderation.css';

const PAGE_SIZE = 50;

/** Settings > Moderation log (staff): every staff action, newest first, filtered by kind; read only. */
export default function ModerationLog({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const [action, setAction] = useState<StaffAction | ''>('');
  const [log, setLog] = useState<ApiOutput<'GET moderation/log'> | null>(null);
  const { busy, error, run } = useAction(t('moderation.queue.failed'));
  const load = async (cursor?: string) => {
    const page = await call('GET moderation/log', {
      pageSize: PAGE_SIZE,
      ...(action ? { action } : {}),
      ...(cursor ? { cursor } : {}),
    });
    setLog((shown) => (cursor && shown ? { ...page, entries: [...shown.entries, ...page.entries] } : page));
  };
  useEffect(() => void run(() => load()), [action]);
  const time = (ms: number) => new Date(ms).toLocaleString(LOCALE_INFO[locale].htmlLang);
  return (
    <section className="card admin-list moderation-log" data-moderation-log>
      <label className="report-filter">
        {t('moderation.log.kind')}
        <select value={action} onChange={(event) => setAction(event.target.value as StaffAction | '')} data-log-filter>
          <option value="">{t('moderation.queue.allKinds')}</option>
          {STAFF_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {t(`moderation.log.actions.${a.replace('.', '_')}`)}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {log && log.entries.length === 0 && <p className="field-hint">{t('moderation.log.empty')}</p>}
      <table className="moderation-log-table">
        <thead>
          <tr>
            <th>{t('moderation.log.when')}</th>
            <th>{t('moderation.log.who')}</th>
            <th>{t('moderation.log.what')}</th>
            <th>{t('moderation.log.target')}</th>
          </tr>
        </thead>
        <tbody>
          {log?.entries.map((entry) => (
            <tr key={entry.entryId} data-log-entry={entry.action}>
              <td>{time(entry.createdDateTime)}</td>
              <td>{entry.actor.username ?? `#${entry.actor.uid}`}</td>
              <td>{t(`moderation.log.actions.${entry.action.replace('.', '_')}`)}</td>
              <td>
                {entry.targetType} #{entry.targetId}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {log?.nextCursor && (
        <button
          type="button"
          className="button secondary"
          disabled={busy}
          onClick={() => void run(() => load(log.nextCursor!))}
        >
          {t('moderation.queue.more')}
        </button>
      )}
    </section>
  );
}

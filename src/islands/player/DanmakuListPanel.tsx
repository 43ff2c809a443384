import { useEffect, useMemo, useState } from 'react';
import type { ReportTarget } from '../report/ReportDialog.tsx';
import ReportDialog from '../report/LazyReportDialog.tsx';
import { openAuthDialog } from '../auth/open-auth-dialog.ts';
import { useSelfUser } from '../use-self-user.ts';
import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';
import type { Danmaku } from '../../lib/api/contracts/interaction.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';

interface Props {
  t: (key: string, options?: Record<string, unknown>) => string;
  locale: Locale;
  list: readonly Danmaku[];
  onJump: (time: number) => void;
  onClose: () => void;
}

const MAX_ROWS = 1000;

/**
 * The danmaku list: time, text and when it was sent; a row jumps the video to its moment, and its
 * context menu (right click, long press, the menu key) offers to report it.
 */
export default function DanmakuListPanel({ t, locale, list, onJump, onClose }: Props) {
  const dateFormat = useMemo(
    () =>
      new Intl.DateTimeFormat(LOCALE_INFO[locale].htmlLang, {
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      }),
    [locale],
  );
  const self = useSelfUser();
  const [menu, setMenu] = useState<{ x: number; y: number; danmaku: Danmaku } | null>(null);
  const [reporting, setReporting] = useState<ReportTarget | null>(null);
  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('click', close);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [menu]);
  const report = (danmaku: Danmaku) => {
    setMenu(null);
    if (!self.isLogined) return void openAuthDialog('login');
    setReporting({ type: 'danmaku', id: danmaku.id, time: danmaku.time });
  };
  return (
    <section className="danmaku-list card" aria-label={t('player.danmakuList')} data-danmaku-list>
      <header>
        <h2>{t('player.danmakuList')}</h2>
        <span className="danmaku-list-count">{t('player.danmakuCount', { count: list.length })}</span>
        <button type="button" className="danmaku-list-close" aria-label={t('player.close')} onClick={onClose}>
          ×
        </button>
      </header>
      {list.length === 0 ? (
        <p className="field-hint">{t('player.noDanmaku')}</p>
      ) : (
        <div className="danmaku-rows" role="table">
          <div role="row" className="danmaku-row head">
            <span role="columnheader">{t('player.time')}</span>
            <span role="columnheader">{t('player.content')}</span>
            <span role="columnheader">{t('player.sentAt')}</span>
          </div>
          {list.slice(0, MAX_ROWS).map((d) => (
            <button
              type="button"
              role="row"
              key={d.id}
              className="danmaku-row"
              onClick={() => onJump(d.time)}
              title={t('player.jumpTo', { time: formatTimecode(d.time) })}
              data-danmaku-row={d.id}
              onContextMenu={(event) => {
                event.preventDefault();
                const box = event.currentTarget.getBoundingClientRect();
                // The menu key gives no pointer position: place the menu under the row then.
                setMenu({ x: event.clientX || box.left + 16, y: event.clientY || box.bottom, danmaku: d });
              }}
            >
              <span role="cell">{formatTimecode(d.time)}</span>
              <span role="cell" className="danmaku-text">
                {d.text}
              </span>
              <span role="cell">{dateFormat.format(d.editDateTime)}</span>
            </button>
          ))}
        </div>
      )}
      {menu && (
        <ul
          className="danmaku-menu"
          role="menu"
          style={{ left: Math.min(menu.x, window.innerWidth - 200), top: Math.min(menu.y, window.innerHeight - 60) }}
          data-danmaku-menu
        >
          <li role="none">
            <button
              type="button"
              role="menuitem"
              autoFocus
              onClick={(event) => {
                event.stopPropagation();
                report(menu.danmaku);
              }}
              data-danmaku-report
            >
              ⚑ {t('moderation.report.danmaku')}
            </button>
          </li>
        </ul>
      )}
      <ReportDialog t={t} target={reporting} onClose={() => setReporting(null)} />
    </section>
  );
}

import { useMemo } from 'react';
import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';
import type { Danmaku } from '../../lib/api/contract.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';

interface Props {
  t: (key: string, options?: Record<string, unknown>) => string;
  locale: Locale;
  list: readonly Danmaku[];
  onJump: (time: number) => void;
  onClose: () => void;
}

const MAX_ROWS = 1000;

/** The danmaku list: time, text and when it was sent; a row jumps the video to its moment. */
export default function DanmakuListPanel({ t, locale, list, onJump, onClose }: Props) {
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(LOCALE_INFO[locale].htmlLang,
    { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }), [locale]);
  return (
    <section className="danmaku-list card" aria-label={t('player.danmakuList')} data-danmaku-list>
      <header>
        <h2>{t('player.danmakuList')}</h2>
        <span className="danmaku-list-count">{t('player.danmakuCount', { count: list.length })}</span>
        <button type="button" className="danmaku-list-close" aria-label={t('player.close')} onClick={onClose}>×</button>
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
            <button type="button" role="row" key={d.id} className="danmaku-row" onClick={() => onJump(d.time)} title={t('player.jumpTo', { time: formatTimecode(d.time) })}>
              <span role="cell">{formatTimecode(d.time)}</span>
              <span role="cell" className="danmaku-text">{d.text}</span>
              <span role="cell">{dateFormat.format(d.editDateTime)}</span>
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { LOCALES, LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { switchLanguage } from '../../lib/i18n/switch.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { ICONS } from '../../components/icons.ts';

interface Props {
  locale: Locale;
  route: string;
  messages: Messages;
  /** 'menu' in the top bar, 'list' on the settings language page. */
  variant?: 'menu' | 'list';
}

/** The language switcher: keeps the route, changes the prefix, runs the 500 ms transition. */
export default function LanguageMenu({ locale, route, messages, variant = 'menu' }: Props) {
  const t = useIslandTranslation(locale, messages);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const items = LOCALES.map((code) => (
    <li key={code} role="none">
      <a
        role={variant === 'menu' ? 'menuitemradio' : undefined}
        aria-checked={variant === 'menu' ? code === locale : undefined}
        aria-current={variant === 'list' && code === locale ? 'true' : undefined}
        lang={LOCALE_INFO[code].htmlLang}
        hrefLang={LOCALE_INFO[code].htmlLang}
        href={localizePath(route, code)}
        className={code === locale ? 'language-item current' : 'language-item'}
        onClick={(event) => {
          event.preventDefault();
          if (code !== locale) switchLanguage(code);
          setOpen(false);
        }}
      >
        {LOCALE_INFO[code].nativeName}
      </a>
    </li>
  ));

  if (variant === 'list') return <ul className="language-list">{items}</ul>;

  return (
    <div className="language-menu" ref={root}>
      <button
        type="button"
        className="icon-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('topbar.language')}
        data-tooltip={t('topbar.language')}
        onClick={() => setOpen((v) => !v)}
      >
        <svg className="icon" width="24" height="24" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
          <path d={ICONS.translate} />
        </svg>
      </button>
      {open && (
        <ul className="language-popup" id={menuId} role="menu" aria-label={t('topbar.language')}>
          {items}
        </ul>
      )}
    </div>
  );
}

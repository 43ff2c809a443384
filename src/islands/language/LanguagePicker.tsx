import { LOCALES, LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { switchLanguage } from '../../lib/i18n/switch.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import type { Messages } from '../../lib/i18n/translate.ts';

interface Props {
  locale: Locale;
  route: string;
  /** Only the namespaces this island uses, of the active locale. */
  messages: Messages;
}

/** The settings page's language list: keeps the route, changes the prefix, runs the 500 ms transition. */
export default function LanguagePicker({ locale, route, messages }: Props) {
  const t = useIslandTranslation(locale, messages);
  return (
    <ul className="language-list" aria-label={t('settings.language.current')}>
      {LOCALES.map((code) => (
        <li key={code}>
          <a
            lang={LOCALE_INFO[code].htmlLang}
            hrefLang={LOCALE_INFO[code].htmlLang}
            href={localizePath(route, code)}
            aria-current={code === locale ? 'true' : undefined}
            className={code === locale ? 'language-item current' : 'language-item'}
            onClick={(event) => {
              event.preventDefault();
              if (code !== locale) switchLanguage(code);
            }}
          >
            {LOCALE_INFO[code].nativeName}
          </a>
        </li>
      ))}
    </ul>
  );
}

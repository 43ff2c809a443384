/**
 * Opens the login dialog on demand: React, the dialog and the active locale's texts are
 * loaded only when a visitor asks to log in, so ordinary page views stay light.
 */
import type { AuthMode } from './AuthDialog.tsx';
import { createTranslator, pickNamespaces, type Messages } from '../../lib/i18n/translate.ts';
import { isLocale, DEFAULT_LOCALE } from '../../lib/i18n/locales.ts';

let open = false;

async function loadMessages(locale: string): Promise<Messages> {
  try {
    const response = await fetch(`/_i18n/${locale}/messages.json`);
    if (!response.ok) throw new Error(`HTTP error! Status: ${response.status}`);
    const all = (await response.json()) as Record<string, Messages>;
    return pickNamespaces(all[locale] ?? {}, ['auth', 'api', 'security', 'credentials']);
  } catch (error) {
    console.warn('Failed to load messages for locale', locale, error);
    return {};
  }
}

export async function openAuthDialog(mode: AuthMode = 'login'): Promise<void> {
  if (open) return;
  open = true;
  const code = document.documentElement.dataset.locale;
  const locale = isLocale(code) ? code : DEFAULT_LOCALE;
  const [{ createElement }, { createRoot }, { default: AuthDialog }, messages] = await Promise.all([
    import('react'),
    import('react-dom/client'),
    import('./AuthDialog.tsx'),
    loadMessages(locale),
  ]);
  const mount = document.createElement('div');
  document.getElementById('popover-mount')?.append(mount);
  const root = createRoot(mount);
  const { t } = createTranslator(locale, messages);
  root.render(
    createElement(AuthDialog, {
      t,
      initialMode: mode,
      locale,
      onClose: () => {
        root.unmount();
        mount.remove();
        open = false;
      },
    }),
  );
}

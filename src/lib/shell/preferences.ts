/**
 * The Preference page's choices applied to what the server rendered (video cards in the HTML,
 * the top bar); React lists read the same store themselves (src/components/VideoList.tsx).
 */
import { $appSettings, preferenceOn } from '../stores/app-settings.ts';
import { formatCardDate } from '../catalogue/format.ts';
import { splitLocale, type Locale } from '../i18n/locales.ts';

export const GUEST_AVATAR_URL = '/avatars/guest-akkarin.svg';

export function isVideoPath(pathname: string): boolean {
  return splitLocale(pathname).route.startsWith('/video/');
}

/** "Open videos in a new tab": a plain click on a link to a video of this site opens a tab. */
function openVideosInNewTab(): void {
  document.addEventListener('click', (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.ctrlKey ||
      event.metaKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    if (!preferenceOn('isOpenVideoInNewTab')) return;
    const anchor = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[href]');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || !isVideoPath(url.pathname)) return;
    event.preventDefault();
    window.open(url.href, '_blank', 'noopener');
  });
}

/** Dates of server-rendered cards: relative or absolute as chosen (and a cached page's "3 hours ago" brought up to date). */
function renderCardDates(locale: Locale): void {
  const render = () => {
    const relative = preferenceOn('relativeDate');
    for (const time of document.querySelectorAll<HTMLTimeElement>('time[data-upload-date]')) {
      const epoch = Number(time.dataset.uploadDate);
      if (Number.isFinite(epoch)) time.textContent = formatCardDate(epoch, locale, relative);
    }
  };
  $appSettings.subscribe(render);
}

export function applyPreferences(locale: Locale): void {
  openVideosInNewTab();
  renderCardDates(locale);
}

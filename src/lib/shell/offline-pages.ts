import { CACHE_NAMES, OFFLINE_ROUTE } from '../offline/rules.ts';
import { splitLocale } from '../i18n/locales.ts';

/** Fills `container`'s list with the pages the service worker kept (their titles from the kept HTML). */
export async function listKeptPages(container: HTMLElement | null): Promise<void> {
  if (!container || !('caches' in window)) return;
  const cache = await caches.open(CACHE_NAMES.pages);
  const list = container.querySelector('ul');
  let shown = 0;
  for (const request of (await cache.keys()).slice(-30).reverse()) {
    const url = new URL(request.url);
    if (url.origin !== location.origin || splitLocale(url.pathname).route === OFFLINE_ROUTE) continue;
    const html = await (await cache.match(request))?.text();
    const title = /<title>([^<]*)<\/title>/.exec(html ?? '')?.[1] ?? url.pathname;
    const link = document.createElement('a');
    link.href = url.pathname + url.search;
    link.textContent = new DOMParser().parseFromString(title, 'text/html').documentElement.textContent || url.pathname;
    const item = document.createElement('li');
    item.append(link);
    list?.append(item);
    shown++;
  }
  container.hidden = shown === 0;
}

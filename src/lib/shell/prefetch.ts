/**
 * Route preloads (SPEC §9: at most 4 in parallel). Hovering or focusing a link to another page of
 * the site fetches that page ahead of the click, so the browser has it when the click comes; a
 * queue keeps those fetches to four at a time, each page once, so sweeping the pointer over a grid
 * of cards never floods the connection the current page still needs.
 */

export const PREFETCH_PARALLEL = 4;
/** How long the pointer rests on a link before it counts as an intent (a sweep over a grid does not). */
export const PREFETCH_HOVER_MS = 80;

export interface PrefetchQueue {
  /** Queues a URL unless it was queued before; false when it was. */
  add(url: string): boolean;
  readonly running: number;
  readonly waiting: number;
}

/** A queue that runs at most `limit` loads at once, each URL once; a failed load frees its slot like a finished one. */
export function createPrefetchQueue(
  load: (url: string) => Promise<unknown>,
  limit: number = PREFETCH_PARALLEL,
): PrefetchQueue {
  const seen = new Set<string>();
  const waiting: string[] = [];
  let running = 0;
  const pump = () => {
    while (running < limit && waiting.length) {
      const url = waiting.shift()!;
      running += 1;
      void Promise.resolve()
        .then(() => load(url))
        .catch(() => undefined)
        .finally(() => {
          running -= 1;
          pump();
        });
    }
  };
  return {
    add(url) {
      if (seen.has(url)) return false;
      seen.add(url);
      waiting.push(url);
      pump();
      return true;
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/**
 * The address a link should be preloaded at, or null: another page of this site, opened in this
 * tab, not a download, not the API or media (which are not pages), not the page already shown,
 * and not one marked `data-no-prefetch` (a logout, an action).
 */
export function prefetchTarget(
  link: { href: string; target?: string; hasAttribute(name: string): boolean },
  here: { href: string; origin: string },
): string | null {
  if (!link.href || (link.target && link.target !== '_self')) return null;
  if (link.hasAttribute('download') || link.hasAttribute('data-no-prefetch')) return null;
  let url: URL;
  try {
    url = new URL(link.href, here.href);
  } catch {
    return null;
  }
  if (url.origin !== here.origin || !/^https?:$/.test(url.protocol)) return null;
  if (/^\/(api|media|_app)\//.test(url.pathname)) return null;
  url.hash = '';
  const current = new URL(here.href);
  current.hash = '';
  if (url.href === current.href) return null;
  return url.href;
}

/** A `<link rel="prefetch">` that settles when the page is in the cache (or failed). */
function prefetchWithLink(url: string): Promise<void> {
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.href = url;
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
    document.head.append(link);
  });
}

/** Preloads the pages the reader points at or tabs to, through one queue of four. */
export function wirePrefetch(): void {
  const connection = (navigator as { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData) return;
  const queue = createPrefetchQueue(prefetchWithLink);
  const enqueue = (target: EventTarget | null) => {
    const link = target instanceof Element ? target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const url = prefetchTarget(link, location);
    if (url) queue.add(url);
  };
  let hover: ReturnType<typeof setTimeout> | undefined;
  document.addEventListener('pointerover', (event) => {
    if (event.pointerType !== 'mouse') return;
    clearTimeout(hover);
    hover = setTimeout(() => enqueue(event.target), PREFETCH_HOVER_MS);
  });
  document.addEventListener('pointerout', () => clearTimeout(hover));
  document.addEventListener('focusin', (event) => enqueue(event.target));
}

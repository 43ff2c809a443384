/**
 * The header's bell (loaded by the shell only once a member is logged in, so guests and the home
 * page's first load carry none of it): one Server-Sent Events stream per tab, whose `unread`
 * events carry the count as it changes on any server process; the badge shows it. The browser's
 * EventSource reconnects by itself (the stream says after 1 s).
 */
import { streamUrl } from '../api/client.ts';
import { $unreadNotifications } from '../stores/notifications.ts';

let source: EventSource | null = null;
let stopRendering: (() => void) | null = null;

/** Opens the stream and keeps the bell's badge and label in step with the count. */
export function startBell(bell: HTMLElement): void {
  if (source) return;
  const badge = bell.querySelector<HTMLElement>('[data-bell-count]');
  stopRendering = $unreadNotifications.subscribe((count) => {
    const shown = count ?? 0;
    if (badge) {
      badge.textContent = shown > 99 ? '99+' : String(shown);
      badge.hidden = shown === 0;
    }
    // The labels come with the page, in its language: "Notifications" and "Notifications, {{count}} unread".
    const label = shown ? bell.dataset.labelUnread?.replace('{{count}}', String(shown)) : bell.dataset.label;
    if (label) bell.setAttribute('aria-label', label);
    bell.dataset.unread = String(shown);
  });
  source = new EventSource(streamUrl('GET notification/live', undefined), { withCredentials: true });
  source.addEventListener('unread', (event) => {
    const { unreadCount } = JSON.parse((event as MessageEvent<string>).data) as { unreadCount: number };
    $unreadNotifications.set(unreadCount);
  });
}

/** After a logout: the stream closes and the count is forgotten. */
export function stopBell(): void {
  source?.close();
  source = null;
  stopRendering?.();
  stopRendering = null;
  $unreadNotifications.set(null);
}

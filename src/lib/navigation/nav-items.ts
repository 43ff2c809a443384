import type { IconName } from '../icons.ts';

export interface NavItem {
  route: string;
  label: string;
  icon: IconName;
  /** Guests are asked to log in instead of opening a page they cannot use. */
  requiresLogin?: boolean;
}

/** Side bar entries; the first five also make the bottom navigation on phones. */
export const NAV_ITEMS: readonly NavItem[] = [
  { route: '/', label: 'nav.home', icon: 'home' },
  { route: '/category', label: 'nav.category', icon: 'category' },
  { route: '/upload', label: 'nav.upload', icon: 'upload', requiresLogin: true },
  { route: '/feed/following', label: 'nav.following', icon: 'following', requiresLogin: true },
  { route: '/history', label: 'nav.history', icon: 'history' },
  { route: '/audio', label: 'nav.audio', icon: 'audio' },
  { route: '/photo', label: 'nav.photo', icon: 'photo' },
  { route: '/collections', label: 'nav.collections', icon: 'collections' },
];
export const BOTTOM_NAV_COUNT = 5;

/** Whether a nav entry is the current page (the home entry only on the home route). */
export function isActiveRoute(itemRoute: string, currentRoute: string): boolean {
  if (itemRoute === '/') return currentRoute === '/';
  return currentRoute === itemRoute || currentRoute.startsWith(`${itemRoute}/`);
}

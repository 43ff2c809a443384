/**
 * The route table of SPEC §2, shared by the pages (getStaticPaths), the sitemap and the tests.
 * Routes are written without a locale prefix.
 */
export const TOP_LEVEL_PAGES = [
  'audio',
  'photo',
  'search',
  'upload',
  'history',
  'welcome',
  'category',
  'collections',
  'notifications',
] as const;

export const SETTINGS_PAGES = [
  'about',
  'content',
  'privacy',
  'profile',
  'language',
  'security',
  'dashboard',
  'user-info',
  'appearance',
  'preference',
  'user-block',
  'experimental',
  'shortcut-key',
  'block-and-hide',
  'acknowledgement',
  'invitation-code',
  'my-videos',
  'jobs',
  'my-tracks',
  'notifications',
  'reports',
  'moderation-log',
] as const;
export type SettingsPage = (typeof SETTINGS_PAGES)[number];

/** Settings pages that need the administrator role; others are sent to /settings/appearance. */
export const ADMIN_SETTINGS_PAGES: readonly SettingsPage[] = [
  'content',
  'user-info',
  'user-block',
  'jobs',
  'reports',
  'moderation-log',
];
export const ADMIN_REDIRECT_PAGE: SettingsPage = 'appearance';
export const DEFAULT_SETTINGS_PAGE: SettingsPage = 'appearance';

/** How settings pages are grouped in the settings side bar. */
export const SETTINGS_GROUPS: ReadonlyArray<{ group: string; pages: readonly SettingsPage[] }> = [
  {
    group: 'account',
    pages: [
      'my-videos',
      'my-tracks',
      'profile',
      'security',
      'dashboard',
      'invitation-code',
      'privacy',
      'notifications',
    ],
  },
  { group: 'personalisation', pages: ['appearance', 'preference', 'language', 'block-and-hide', 'shortcut-key'] },
  { group: 'admin', pages: ['content', 'reports', 'user-info', 'user-block', 'jobs', 'moderation-log'] },
  { group: 'about', pages: ['experimental', 'about', 'acknowledgement'] },
];

export const DEV_PAGES = [
  'test-font',
  'components',
  'test-color',
  'test-lottie',
  'test-mobile',
  'test-scroll',
  'test-slider',
  'pointer-type',
  'test-rich-text-editor',
] as const;

/** Every prerendered route, for the build, the sitemap and the route tests. */
export const STATIC_ROUTES: readonly string[] = [
  '/',
  ...TOP_LEVEL_PAGES.map((p) => `/${p}`),
  '/feed/following',
  '/upload/photo',
  '/user',
  '/settings',
  '/settings/exit',
  ...SETTINGS_PAGES.filter((p) => !ADMIN_SETTINGS_PAGES.includes(p)).map((p) => `/settings/${p}`),
  '/error',
  '/unsupported',
  '/offline',
  '/dev',
  ...DEV_PAGES.map((p) => `/dev/${p}`),
];

/** The media-info wasm file lives at the root; any path ending in its name redirects there. */
export const MEDIA_INFO_WASM = 'MediaInfoModule.wasm';

/** Layout choice of SPEC §2: immersive when the first segment is welcome. */
export function layoutForRoute(route: string): 'immersive' | 'responsive' {
  return route.split('/')[1] === 'welcome' ? 'immersive' : 'responsive';
}

/** Breakpoints of SPEC §2/§9 by window width. */
export const BREAKPOINTS = { mobileMax: 639, tabletMax: 991 } as const;
export type Breakpoint = 'mobile' | 'tablet' | 'computer';
export function breakpointFor(width: number): Breakpoint {
  if (width <= BREAKPOINTS.mobileMax) return 'mobile';
  if (width <= BREAKPOINTS.tabletMax) return 'tablet';
  return 'computer';
}

/**
 * Wires the static shell once per page: toasts, loading bar, tooltips, navigation guard,
 * breakpoint attribute, side bar, settings exit route, service worker and the outdated-build
 * check. Plain DOM code: the shell must work before (and without) any React island.
 */
import { $toasts, showToast, dismissToast, TOAST_ENTER_MS, type Toast } from '../stores/toast.ts';
import { $loading, startLoading, finishLoading, failLoading } from '../stores/loading.ts';
import { $breakpoint } from '../stores/breakpoint.ts';
import { $appSettings } from '../stores/app-settings.ts';
import { checkNavigation } from '../navigation/safe-url.ts';
import { splitLocale } from '../i18n/locales.ts';
import { createCharacter } from './easter-egg.ts';
import { switchLanguage } from '../i18n/switch.ts';
import { isLocale, localizePath, splitLocale as splitPath } from '../i18n/locales.ts';
import { $selfUser, fetchSelfUser, logoutSelfUser, uidCookie } from '../stores/self-user.ts';
import { setApiBase, REQUEST_FAILED_EVENT } from '../api/http.ts';
import { publicConfig } from '../public-config.ts';
import { syncThemeFromServer, watchThemeInputs } from '../theme/theme-runtime.ts';
import { applyPreferences, GUEST_AVATAR_URL } from './preferences.ts';
import { preferenceOn } from '../stores/app-settings.ts';
import { flagOn } from '../stores/experimental.ts';
import { watchInstallPrompt } from '../stores/install-prompt.ts';
import { IN_CONTEXT_LOCALE, startInContextScript } from '../i18n/in-context.ts';
import { BACKGROUND_IMAGE_KEY, parseBackgroundImage } from '../stores/background-image.ts';
import { STALE_BUILD_EVENT } from './chunk-recovery.js';
import { wirePrefetch } from './prefetch.ts';

interface ShellData {
  locale: string;
  route: string;
  buildId: string;
  messages: { toast: Record<string, string>; auth: Record<string, string> };
  allowedExternalOrigins: string[];
  greeting: string;
}

export const BUILD_CHECK_INTERVAL_MS = 3_600_000;

function readShellData(): ShellData {
  return JSON.parse(document.getElementById('shell-data')?.textContent || '{}') as ShellData;
}

/** "Try again in 12 s", counting down to nothing (toast.retryIn, with {{seconds}}). */
function countDown(el: HTMLElement, seconds: number, template: string): void {
  const until = Date.now() + seconds * 1000;
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    el.textContent = left > 0 ? template.replace('{{seconds}}', String(left)) : '';
    // On to the next whole second, while the toast is on screen (it is attached right after the first tick).
    if (left > 0 && (el.isConnected || !started)) setTimeout(tick, (until - Date.now()) % 1000 || 1000);
    started = true;
  };
  let started = false;
  tick();
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A toast's icon: 24×24 path data (an entry of ICONS), drawn in the toast's colour. */
function toastIcon(pathData: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('toast-icon');
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', pathData);
  svg.append(path);
  return svg;
}

function renderToasts(area: HTMLElement, closeLabel: string, retryIn: string): void {
  const render = (toasts: readonly Toast[]) => {
    const alive = new Set(toasts.map((t) => String(t.id)));
    for (const el of Array.from(area.children) as HTMLElement[]) {
      if (!alive.has(el.dataset.id ?? '')) {
        el.classList.add('leaving');
        setTimeout(() => el.remove(), 300);
      }
    }
    for (const toast of toasts) {
      if (area.querySelector(`[data-id="${toast.id}"]`)) continue;
      const el = document.createElement('div');
      el.className = `toast toast-${toast.severity}`;
      el.dataset.id = String(toast.id);
      el.setAttribute('role', toast.severity === 'error' ? 'alert' : 'status');
      el.style.animationDuration = `${TOAST_ENTER_MS}ms`;
      if (toast.icon) el.append(toastIcon(toast.icon));
      const text = document.createElement('span');
      text.textContent = toast.message; // text, never HTML
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'toast-close';
      close.setAttribute('aria-label', closeLabel);
      close.textContent = '×';
      close.addEventListener('click', () => dismissToast(toast.id));
      el.append(text);
      if (toast.retryAfterSeconds) {
        const wait = document.createElement('span');
        wait.className = 'toast-countdown';
        wait.dataset.retryCountdown = '';
        el.append(' ', wait);
        countDown(wait, toast.retryAfterSeconds, retryIn);
      }
      if (toast.action) {
        const { label, run } = toast.action;
        const action = document.createElement('button');
        action.type = 'button';
        action.className = 'toast-action';
        action.textContent = label;
        action.addEventListener('click', () => {
          dismissToast(toast.id);
          run();
        });
        el.append(action);
      }
      el.append(close);
      area.append(el);
    }
  };
  $toasts.subscribe(render);
}

function wireLoadingBar(bar: HTMLElement): void {
  $loading.subscribe((state) => {
    bar.hidden = !state.visible;
    bar.style.setProperty('--progress', `${state.progress}%`);
    bar.classList.toggle('error', state.error);
  });
  // A multi-page site: a navigation starts when the page is being left, and finishes on show;
  // one that ended on an error page, or an island call that failed, shows the error state.
  addEventListener('beforeunload', () => startLoading());
  addEventListener('pageshow', () => (document.querySelector('.error-page') ? failLoading() : finishLoading()));
  addEventListener(REQUEST_FAILED_EVENT, () => failLoading());
}

function wireTooltips(area: HTMLElement): void {
  // Only on devices with a hovering pointer, and only for a non-blank title (SPEC §5).
  if (!matchMedia('(hover: hover) and (pointer: fine)').matches) return;
  document.addEventListener('pointerover', (event) => {
    const target = (event.target as Element | null)?.closest<HTMLElement>('[data-tooltip]');
    const title = target?.dataset.tooltip?.trim();
    if (!target || !title) return;
    area.textContent = title;
    area.hidden = false;
    const rect = target.getBoundingClientRect();
    const placement = target.dataset.tooltipPlacement ?? 'bottom';
    const x = placement === 'right' ? rect.right + 8 : rect.left + rect.width / 2;
    const y = placement === 'right' ? rect.top + rect.height / 2 : rect.bottom + 8;
    area.dataset.placement = placement;
    area.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    target.addEventListener('pointerleave', () => (area.hidden = true), { once: true });
  });
}

function wireNavigationGuard(data: ShellData): void {
  document.addEventListener(
    'click',
    (event) => {
      const anchor = (event.target as Element | null)?.closest('a[href]');
      if (!anchor) return;
      const verdict = checkNavigation(anchor.getAttribute('href') ?? '', location.origin, data.allowedExternalOrigins);
      if (!verdict.ok) {
        event.preventDefault();
        showToast({ message: data.messages.toast.navigationRefused, severity: 'warning' });
        console.warn(`Navigation refused (${verdict.reason}):`, anchor.getAttribute('href'));
      }
    },
    { capture: true },
  );
}

function wireLanguageMenu(): void {
  const menu = document.querySelector<HTMLDetailsElement>('[data-language-menu]');
  if (!menu) return;
  menu.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('[data-switch-locale]');
    const code = link?.dataset.switchLocale;
    if (!link || !isLocale(code)) return;
    event.preventDefault();
    menu.open = false;
    if (link.getAttribute('aria-current') !== 'true') switchLanguage(code);
  });
}

/**
 * The shell's disclosure menus (<details data-dismissable>: the language menu, the phone's "more"
 * sheet) close as every popover does: on Esc and on a press outside them.
 */
function wireDismissableMenus(): void {
  const close = (event: Event) => {
    for (const menu of document.querySelectorAll<HTMLDetailsElement>('details[data-dismissable][open]')) {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !menu.contains(event.target as Node)) {
        const hadFocus = menu.contains(document.activeElement);
        menu.open = false;
        if (hadFocus) menu.querySelector('summary')?.focus();
      }
    }
  };
  document.addEventListener('pointerdown', close);
  document.addEventListener('keydown', close);
}

/** Opens the login dialog (an island the layout hands in, loaded when asked for). */
let openAuth: (mode?: 'login' | 'register') => Promise<void> = async () => {};

/**
 * The notification bell shows for members only; its code (the live unread count) is loaded the
 * first time a member is known, so a guest's pages never load it.
 */
let bellOn = false;
function renderBell(member: boolean): void {
  const bell = document.querySelector<HTMLElement>('[data-notification-bell]');
  if (!bell || member === bellOn) return;
  bellOn = member;
  bell.hidden = !member;
  import('../notifications/bell.ts')
    .then((m) => (member ? m.startBell(bell) : m.stopBell()))
    .catch((error) => console.error('notification bell', error));
}

/**
 * The policy table, loaded once a member is signed in: a guest's page never needs it, and its
 * notes would add ~2 KB (gzip) to every page's shell.
 */
let policy: typeof import('../policy/policy.ts') | null = null;
let policyLoading = false;
function loadPolicy(then: () => void): void {
  if (policy || policyLoading) return;
  policyLoading = true;
  import('../policy/policy.ts')
    .then((m) => {
      policy = m;
      then();
    })
    .catch((error) => console.error('policy', error))
    .finally(() => (policyLoading = false));
}

/** The top bar follows the session: a guest gets the login dialog, a member their page and logout. */
function wireSession(data: ShellData): void {
  const button = document.querySelector<HTMLAnchorElement>('[data-auth-button]');
  const label = button?.querySelector<HTMLElement>('[data-auth-label]');
  const logoutButton = document.querySelector<HTMLButtonElement>('[data-logout]');
  const { locale } = splitPath(location.pathname);
  const guestLabel = label?.textContent ?? '';
  const render = () => {
    const { isLogined, userInfo } = $selfUser.get();
    const member = isLogined && userInfo;
    if (member && !policy) loadPolicy(render);
    const staff = !!member && !!policy && policy.can(userInfo, 'staff.entries');
    document.querySelectorAll<HTMLElement>('[data-staff-only]').forEach((el) => (el.hidden = !staff));
    if (!button || !label) return; // pages without the app bar (settings)
    button.href = localizePath(member ? `/user/${userInfo.uid}` : '/user', locale);
    label.textContent = member ? userInfo.userNickname || userInfo.username : guestLabel;
    // A guest's avatar is the Akkarin picture when chosen in Preference (SPEC §3 akkarinGuestAvatar).
    const guestAvatar = !member && preferenceOn('akkarinGuestAvatar');
    const avatar = member ? userInfo.avatar : guestAvatar ? GUEST_AVATAR_URL : '';
    button.style.setProperty('--avatar', avatar ? `url("${encodeURI(avatar)}")` : '');
    button.toggleAttribute('data-logged-in', !!member);
    button.toggleAttribute('data-guest-avatar', guestAvatar);
    if (logoutButton) logoutButton.hidden = !member;
    renderBell(!!member);
  };
  $selfUser.subscribe(render);
  $appSettings.subscribe(render);
  button?.addEventListener('click', (event) => {
    if ($selfUser.get().isLogined) return;
    event.preventDefault();
    void openAuth('login');
  });
  logoutButton?.addEventListener('click', async () => {
    if (await logoutSelfUser()) showToast({ message: data.messages.auth.loggedOut, severity: 'info' });
  });
  // Guests asked to log in rather than sent to a page they cannot use.
  document.addEventListener('click', (event) => {
    const target = (event.target as Element | null)?.closest('[data-requires-login]');
    if (!target || $selfUser.get().isLogined) return;
    event.preventDefault();
    showToast({ message: data.messages.auth.loginRequired, severity: 'info' });
    void openAuth('login');
  });
  if (uidCookie()) void fetchSelfUser();
  else $selfUser.setKey('isEffectiveCheckOnce', true);
}

function wireSideBar(): void {
  const toggle = document.getElementById('sidebar-toggle');
  if (!toggle) return;
  const apply = (collapsed: boolean) => {
    document.documentElement.toggleAttribute('data-sidebar-collapsed', collapsed);
    toggle.setAttribute('aria-expanded', String(!collapsed));
  };
  apply(localStorage.getItem('sidebar-collapsed') === 'true');
  toggle.addEventListener('click', () => {
    const collapsed = !document.documentElement.hasAttribute('data-sidebar-collapsed');
    localStorage.setItem('sidebar-collapsed', String(collapsed));
    apply(collapsed);
  });
}

/** Settings remembers where it was opened from (exit) and which page was last visited. */
function trackSettingsRoutes(): void {
  const { route } = splitLocale(location.pathname);
  const settingsPage = /^\/settings\/([^/]+)$/.exec(route)?.[1];
  if (settingsPage && settingsPage !== 'exit') $appSettings.setKey('lastSettingPage', settingsPage);
  else if (!route.startsWith('/settings')) $appSettings.setKey('exitSettingRoute', route + location.search);
}

/** A chosen wallpaper is drawn by a module loaded only then: pages without one pay nothing. */
function restoreWallpaper(): void {
  let chosen = false;
  try {
    chosen = parseBackgroundImage(localStorage.getItem(BACKGROUND_IMAGE_KEY)).imageIndex >= 0;
  } catch {
    /* no storage */
  }
  if (chosen)
    import('../wallpaper/background.ts')
      .then((m) => m.restoreWallpaper())
      .catch((error) => console.error('wallpaper', error));
}

/** Experimental "page transitions" off: the outgoing page skips the cross-document transition. */
function honourPageTransitionsFlag(): void {
  addEventListener('pageswap', (event) => {
    if (!flagOn('pageTransitions'))
      (event as Event & { viewTransition?: { skipTransition(): void } | null }).viewTransition?.skipTransition();
  });
}

function registerServiceWorker(locale: string): void {
  addEventListener('load', () => {
    if (!('serviceWorker' in navigator)) {
      console.error('serviceWorker is not supported in current browser!');
      return;
    }
    navigator.serviceWorker
      .register('/sw.js')
      .catch((error) => console.error('service worker registration failed', error));
    // The worker keeps this locale's messages and offline page (the default one's are precached).
    void navigator.serviceWorker.ready.then((registration) =>
      registration.active?.postMessage({ type: 'locale', locale }),
    );
  });
  // After a logout, the member's kept pages and answers leave this browser's offline copy.
  $selfUser.listen(({ isLogined }, previous) => {
    if (previous?.isLogined && !isLogined) navigator.serviceWorker?.controller?.postMessage({ type: 'logout' });
  });
}

/** "A new version is out": a toast that stays until the reader reloads or closes it. */
function promptReload(data: ShellData): void {
  showToast({
    message: data.messages.toast.newVersion,
    severity: 'info',
    duration: Number.POSITIVE_INFINITY,
    action: { label: data.messages.toast.reload, run: () => location.reload() },
  });
}

/**
 * The outdated-build check of SPEC §9: every hour (and when the connection comes back or the tab
 * is shown again), a new build id prompts a reload; the service worker is asked to update too.
 */
function watchForNewBuild(data: ShellData): void {
  let prompted = false;
  const check = async () => {
    if (prompted || !navigator.onLine) return;
    try {
      const response = await fetch('/_app/builds/latest.json', { cache: 'no-store' });
      if (!response.ok) throw new Error(`HTTP error! Status: ${response.status}`);
      const latest = (await response.json()) as { id: string };
      if (latest.id && latest.id !== data.buildId) {
        prompted = true;
        clearInterval(interval);
        void navigator.serviceWorker
          ?.getRegistration()
          .then((registration) => registration?.update())
          .catch(() => undefined);
        promptReload(data);
      }
    } catch (error) {
      console.error('Failed to fetch the app manifest', error);
    }
  };
  const interval = setInterval(check, BUILD_CHECK_INTERVAL_MS);
  addEventListener('online', () => void check());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void check();
  });
}

export function bootShell(options: { openAuthDialog: (mode?: 'login' | 'register') => Promise<void> }): void {
  openAuth = options.openAuthDialog;
  try {
    setApiBase(publicConfig.apiBase);
    const data = readShellData();
    const toastArea = document.getElementById('toast-area');
    if (toastArea) renderToasts(toastArea, data.messages.toast.close, data.messages.toast.retryIn);
    // The head script reloaded once already for a missing chunk (chunk-recovery.js): now it asks.
    if ((window as { __kiraboshiStaleBuild?: boolean }).__kiraboshiStaleBuild) promptReload(data);
    else addEventListener(STALE_BUILD_EVENT, () => promptReload(data), { once: true });
    const bar = document.getElementById('loading-bar');
    if (bar) wireLoadingBar(bar);
    const tooltipArea = document.getElementById('tooltip-area');
    if (tooltipArea) wireTooltips(tooltipArea);
    wireNavigationGuard(data);
    wirePrefetch();
    wireSideBar();
    wireLanguageMenu();
    wireDismissableMenus();
    wireSession(data);
    watchThemeInputs();
    void syncThemeFromServer();
    trackSettingsRoutes();
    restoreWallpaper();
    honourPageTransitionsFlag();
    if (data.locale === IN_CONTEXT_LOCALE) startInContextScript(publicConfig.inContextScriptUrl);
    applyPreferences(isLocale(data.locale) ? data.locale : 'zhs');
    $breakpoint.subscribe((bp) => (document.documentElement.dataset.breakpoint = bp));
    watchInstallPrompt();
    registerServiceWorker(data.locale);
    watchForNewBuild(data);
    const character = createCharacter();
    Object.defineProperty(window, 'kirara', { value: character, configurable: true });
    console.log(`%c☆ ${data.greeting}`, 'color:#f06e8e;font-size:14px;font-weight:bold');
    (window as unknown as { kiraboshi: unknown }).kiraboshi = { showToast, startLoading, finishLoading };
  } catch (error) {
    console.error('error caught during app initialization', error);
  }
}

import { atom } from 'nanostores';

/** Chromium's install prompt event (not in the DOM typings yet). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/**
 * Installing Kiraboshi as an app: 'unknown' until the browser says, 'available' when it offered
 * its prompt (kept for the settings' button), 'installed' when running as the app or just
 * installed, 'manual' where browsers install from their own menu only (Safari, Firefox).
 */
export type InstallState = 'unknown' | 'available' | 'installed' | 'manual';
export const $installState = atom<InstallState>('unknown');
let deferred: InstallPromptEvent | null = null;

/** Called once by the shell, early, so the browser's one prompt event is never missed. */
export function watchInstallPrompt(): void {
  if (matchMedia('(display-mode: standalone)').matches) {
    $installState.set('installed');
    return;
  }
  addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault(); // shown from the settings instead of the browser's own bar
    deferred = event as InstallPromptEvent;
    $installState.set('available');
  });
  addEventListener('appinstalled', () => {
    deferred = null;
    $installState.set('installed');
  });
  // No offer within a few seconds of load: the browser installs from its menu, if at all.
  setTimeout(() => {
    if ($installState.get() === 'unknown') $installState.set('manual');
  }, 3000);
}

/** Shows the browser's install dialog; resolves with whether the visitor accepted. */
export async function promptInstall(): Promise<boolean> {
  if (!deferred) return false;
  const event = deferred;
  deferred = null;
  await event.prompt();
  const { outcome } = await event.userChoice;
  $installState.set(outcome === 'accepted' ? 'installed' : 'manual');
  return outcome === 'accepted';
}

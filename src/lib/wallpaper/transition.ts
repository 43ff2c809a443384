/** Duration of the circular reveal when the wallpaper changes. */
export const WALLPAPER_TRANSITION_MS = 500;

type StartViewTransition = (options: { update: () => void; types: string[] } | (() => void)) => {
  ready: Promise<void>;
};

/**
 * Runs `change` inside a view transition that reveals the new page as a circle growing from
 * `origin` (the pointer, or the middle of the screen) where the browser supports it (SPEC §4);
 * elsewhere, or with reduced motion, the change happens at once.
 */
export function withCircularTransition(origin: { x: number; y: number } | undefined, change: () => void): void {
  const start = (document as Document & { startViewTransition?: StartViewTransition }).startViewTransition?.bind(
    document,
  );
  if (!start || matchMedia('(prefers-reduced-motion: reduce)').matches) {
    change();
    return;
  }
  const x = origin?.x ?? innerWidth / 2;
  const y = origin?.y ?? innerHeight / 2;
  const radius = Math.hypot(Math.max(x, innerWidth - x), Math.max(y, innerHeight - y));
  let transition: { ready: Promise<void> };
  try {
    transition = start({ update: change, types: ['wallpaper'] });
  } catch {
    transition = start(change); // browsers without transition types
  }
  transition.ready.then(
    () => {
      document.documentElement.animate(
        { clipPath: [`circle(0px at ${x}px ${y}px)`, `circle(${radius}px at ${x}px ${y}px)`] },
        { duration: WALLPAPER_TRANSITION_MS, easing: 'ease-in-out', pseudoElement: '::view-transition-new(root)' },
      );
    },
    () => undefined,
  );
}

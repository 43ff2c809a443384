import { useStore } from '@nanostores/react';
import { useSyncExternalStore } from 'react';
import type { ReadableAtom } from 'nanostores';

/**
 * The one way an island reads a shared store. The server rendered the island with
 * `serverSnapshot` (nobody logged in, the default settings, the desktop breakpoint), while in the
 * browser the store may already hold something else when the island hydrates: the shell has
 * learned the login, a persisted store has read local storage. The hydrating render uses the
 * server's value, so it matches the static HTML (no React #418), and the store's own value
 * follows right after; renders that are not hydration (an island mounting later) see the store.
 */
export function useHydratedStore<T>(store: ReadableAtom<T>, serverSnapshot: T): T {
  return useStore(store, { ssr: () => serverSnapshot });
}

const stayHydrated = () => () => {};
/**
 * False while the server renders and while an island hydrates, true in every render after (and
 * from the first render of an island mounted in the browser): for what the browser must redo
 * over the server's markup, such as a relative date ("3 minutes ago") the server wrote earlier.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    stayHydrated,
    () => true,
    () => false,
  );
}

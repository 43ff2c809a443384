/**
 * Generic data loading of SPEC §4: idle, pending, success, error. One small machine the islands
 * share: an answer that arrives after a newer load started is dropped, a failure keeps what was
 * shown before (so a "load more" that fails does not empty the list), and `merge` lets paged
 * lists add a page to what they hold.
 */
export type LoadState = 'idle' | 'pending' | 'success' | 'error';
export interface Loaded<T> {
  state: LoadState;
  data: T | undefined;
  error: unknown;
}

export const idle = <T>(): Loaded<T> => ({ state: 'idle', data: undefined, error: undefined });
export const loadedWith = <T>(data: T): Loaded<T> => ({ state: 'success', data, error: undefined });

export interface Loader<T> {
  get(): Loaded<T>;
  /** Loads; resolves when this load has settled (whether or not it was still the newest). */
  run(load: () => Promise<T>, merge?: (shown: T | undefined, answer: T) => T): Promise<void>;
  /** Back to idle; a load under way is forgotten. */
  reset(): void;
}

export function createLoader<T>(onChange: (loaded: Loaded<T>) => void, initial: Loaded<T> = idle<T>()): Loader<T> {
  let current = initial;
  let newest = 0;
  const set = (next: Loaded<T>) => {
    current = next;
    onChange(next);
  };
  return {
    get: () => current,
    async run(load, merge) {
      const ticket = ++newest;
      set({ ...current, state: 'pending', error: undefined });
      try {
        const answer = await load();
        if (ticket === newest)
          set({ state: 'success', data: merge ? merge(current.data, answer) : answer, error: undefined });
      } catch (error) {
        if (ticket === newest) set({ ...current, state: 'error', error });
      }
    },
    reset() {
      newest += 1;
      set(idle<T>());
    },
  };
}

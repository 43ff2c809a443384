import { useRef, useState } from 'react';
import { createLoader, idle, loadedWith, type Loaded, type Loader } from '../lib/stores/loader.ts';

/**
 * An island's data load in SPEC §4's four states (src/lib/stores/loader.ts). Data rendered on the
 * server is passed as `initial`, so the first client render matches the HTML (success, not idle).
 */
export function useLoader<T>(initial?: T): Loaded<T> & Pick<Loader<T>, 'run' | 'reset'> {
  const [loaded, setLoaded] = useState<Loaded<T>>(() => (initial === undefined ? idle<T>() : loadedWith(initial)));
  const loader = useRef<Loader<T> | null>(null);
  loader.current ??= createLoader<T>(setLoaded, loaded);
  return { ...loaded, run: loader.current.run, reset: loader.current.reset };
}

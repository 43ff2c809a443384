import { useCallback } from 'react';
import { useLoader } from '../use-loader.ts';

interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * A newest-first list read a cursor page at a time ("load more" follows nextCursor): the items
 * so far (null before the first page), whether more exist, and the load state.
 */
export function useCursorPages<T>(fetchPage: (cursor?: string) => Promise<CursorPage<T>>) {
  const { state, data, run } = useLoader<CursorPage<T>>();
  const load = useCallback(
    (cursor?: string) =>
      run(
        () => fetchPage(cursor),
        (shown, page) => ({
          items: cursor && shown ? [...shown.items, ...page.items] : page.items,
          nextCursor: page.nextCursor,
        }),
      ),
    [fetchPage, run],
  );
  return {
    items: data?.items ?? null,
    nextCursor: data?.nextCursor ?? null,
    loading: state === 'pending',
    failed: state === 'error',
    load,
  };
}

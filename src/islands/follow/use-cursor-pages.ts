import { useCallback, useState } from 'react';

/**
 * A newest-first list read a cursor page at a time ("load more" follows nextCursor): the items
 * so far (null before the first page), whether more exist, and the load state.
 */
export function useCursorPages<T>(fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async (cursor?: string) => {
    setLoading(true);
    try {
      const page = await fetchPage(cursor);
      setItems((shown) => (cursor && shown ? [...shown, ...page.items] : page.items));
      setNextCursor(page.nextCursor);
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [fetchPage]);

  return { items, nextCursor, loading, failed, load };
}

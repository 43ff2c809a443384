import { useEffect, useState } from 'react';
import { showToast } from '../../lib/stores/toast.ts';
import type { TFunction } from 'i18next';
import { useAction } from './use-action.ts';

/**
 * A review queue of Settings > Content (tracks, photo posts): one page of pending items, kept
 * within the pages that exist, and approve or delete (after a confirmation) with a toast, then
 * the page read again. `texts` is the catalog section with review.confirmDelete/approved/deleted.
 */
export function useReviewQueue<Page>(options: {
  t: TFunction;
  pageSize: number;
  texts: 'audio' | 'photo';
  load: (page: number) => Promise<Page>;
  count: (data: Page) => number;
  approve: (id: number) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
}) {
  const { t, pageSize, texts } = options;
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page | null>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const load = () => options.load(page).then(setData);
  useEffect(() => void run(load), [page]);
  const pages = Math.max(1, Math.ceil((data ? options.count(data) : 0) / pageSize));
  useEffect(() => { if (data && page > pages) setPage(pages); }, [data, page, pages]);

  const act = (id: number, kind: 'approve' | 'delete') => run(async () => {
    if (kind === 'delete' && !window.confirm(t(`${texts}.review.confirmDelete`, { id }))) return;
    await (kind === 'approve' ? options.approve(id) : options.remove(id));
    showToast({ message: t(kind === 'approve' ? `${texts}.review.approved` : `${texts}.review.deleted`, { id }), severity: 'success' });
    await load();
  });
  return { data, page, pages, setPage, busy, error, act };
}

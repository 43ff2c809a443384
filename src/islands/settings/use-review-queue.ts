import { useEffect, useState } from 'react';
import { showToast } from '../../lib/stores/toast.ts';
import type { TFunction } from 'i18next';
import { useAction } from './use-action.ts';
import type { Rejection } from './RejectForm.tsx';

/**
 * A review queue of Settings > Content (videos, tracks, photo posts): one page of pending items,
 * kept within the pages that exist, and approve, or reject with a reason and a note for the
 * uploader, with a toast, then the page read again. `texts` is the catalog key with `approved`;
 * `label` names an item in messages (kv12, ka3, kp5).
 */
export function useReviewQueue<Page>(options: {
  t: TFunction;
  pageSize: number;
  texts: 'videoReview' | 'audio.review' | 'photo.review';
  label: (id: number) => string;
  load: (page: number) => Promise<Page>;
  count: (data: Page) => number;
  approve: (id: number) => Promise<unknown>;
  reject: (id: number, rejection: Rejection) => Promise<unknown>;
}) {
  const { t, pageSize, texts } = options;
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page | null>(null);
  /** The item whose rejection form is open. */
  const [rejecting, setRejecting] = useState<number | null>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const load = () => options.load(page).then(setData);
  useEffect(() => void run(load), [page]);
  const pages = Math.max(1, Math.ceil((data ? options.count(data) : 0) / pageSize));
  useEffect(() => {
    if (data && page > pages) setPage(pages);
  }, [data, page, pages]);

  const approve = (id: number) =>
    run(async () => {
      await options.approve(id);
      showToast({ message: t(`${texts}.approved`, { id }), severity: 'success' });
      await load();
    });
  const reject = (id: number, rejection: Rejection) =>
    run(async () => {
      await options.reject(id, rejection);
      setRejecting(null);
      showToast({ message: t('rejection.done', { id: options.label(id) }), severity: 'success' });
      await load();
    });
  return { data, page, pages, setPage, busy, error, approve, reject, rejecting, setRejecting };
}

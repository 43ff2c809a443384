import { useEffect, useRef, useState, type RefObject } from 'react';
import type { TFunction } from 'i18next';
import { showToast } from '../../lib/stores/toast.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useAction } from '../settings/use-action.ts';
import { REVIEW_REJECTION_REASONS, type ReviewRejectionReason } from '../../lib/api/contracts/common.constants.ts';

export const MY_UPLOADS_PAGE_SIZE = 20;

/** Why an upload was refused, as its uploader reads it: a reviewer's reason, or the pipeline's (myVideos.reason). */
export function rejectionText(t: TFunction, reason: string): string {
  return (REVIEW_REJECTION_REASONS as readonly string[]).includes(reason)
    ? t('rejection.byReviewer', { reason: t(`rejection.reasons.${reason as ReviewRejectionReason}`) })
    : t(`myVideos.reason.${reason}`);
}

/**
 * The state of a "my uploads" list (Settings > My videos, My tracks): the member's page of their
 * own uploads, the one being edited, the one to delete once confirmed in the dialog, reloading
 * after a save or a deletion (and going back a page when the last item of the last page went).
 */
export function useMyUploads<T extends { title: string }>(
  t: TFunction,
  options: {
    fetchPage: (query: { page: number; pageSize: number }) => Promise<{ items: T[]; count: number }>;
    remove: (item: T) => Promise<unknown>;
    /** The toast after a save that sent the item back to review. */
    savedForReview: string;
  },
) {
  const self = useSelfUser();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ items: T[]; count: number } | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const load = () => options.fetchPage({ page, pageSize: MY_UPLOADS_PAGE_SIZE }).then(setData);

  useEffect(() => {
    if (self.userInfo) void run(load);
  }, [self.userInfo?.uid, page]);
  const pages = Math.max(1, Math.ceil((data?.count ?? 0) / MY_UPLOADS_PAGE_SIZE));
  useEffect(() => {
    if (data && page > pages) setPage(pages);
  }, [data, page, pages]);
  useEffect(() => {
    if (deleting) dialog.current?.showModal();
  }, [deleting]);

  const confirmDelete = () => {
    const item = deleting;
    dialog.current?.close();
    if (!item) return;
    void run(async () => {
      await options.remove(item);
      showToast({ message: t('myVideos.deleted', { title: item.title }), severity: 'success' });
      await load();
    });
  };
  const saved = (backToReview: boolean) =>
    run(async () => {
      setEditing(null);
      showToast({ message: backToReview ? options.savedForReview : t('myVideos.saved'), severity: 'success' });
      await load();
    });
  return {
    self,
    page,
    setPage,
    pages,
    data,
    editing,
    setEditing,
    deleting,
    setDeleting,
    dialog,
    busy,
    error,
    confirmDelete,
    saved,
  };
}

/** The confirmation before deleting one of the member's uploads. */
export function DeleteUploadDialog({
  t,
  dialog,
  id,
  title,
  text,
  onConfirm,
  onClose,
}: {
  t: TFunction;
  dialog: RefObject<HTMLDialogElement | null>;
  id: string;
  title: string;
  text: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <dialog
      ref={dialog}
      className="auth-dialog confirm-dialog"
      aria-labelledby={id}
      onClose={onClose}
      data-delete-dialog
    >
      <h2 id={id}>{title}</h2>
      <p>{text}</p>
      <div className="review-actions">
        <button type="button" className="button danger" onClick={onConfirm} data-confirm-delete>
          {t('myVideos.delete')}
        </button>
        <button type="button" className="button secondary" onClick={() => dialog.current?.close()} autoFocus>
          {t('myVideos.cancel')}
        </button>
      </div>
    </dialog>
  );
}

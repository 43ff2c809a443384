import type { MediaType, ReviewRejectionReason } from '#lib/api/contracts/common.constants.ts';

/** What each section (videos, audio, photos) does when staff review one of its uploads. */
interface ReviewedSection {
  approve(id: number, reviewerUid: number): Promise<void>;
  reject(id: number, reviewerUid: number, rejection: { reason: ReviewRejectionReason; note: string }): Promise<void>;
}
type UploadReviewed = (
  type: MediaType,
  id: number,
  outcome: { approved: true } | { approved: false; reason: string; note: string },
) => Promise<void>;

/**
 * The review queues' decisions (…/pending/approved, …/pending/rejected): the section that owns the
 * upload changes its state and records the staff action, then its uploader is told the outcome.
 */
export function createReviewService(sections: Record<MediaType, ReviewedSection>, uploadReviewed: UploadReviewed) {
  return {
    async approve(type: MediaType, id: number, reviewerUid: number): Promise<void> {
      await sections[type].approve(id, reviewerUid);
      await uploadReviewed(type, id, { approved: true });
    },
    async reject(
      type: MediaType,
      id: number,
      reviewerUid: number,
      rejection: { reason: ReviewRejectionReason; note: string },
    ): Promise<void> {
      await sections[type].reject(id, reviewerUid, rejection);
      await uploadReviewed(type, id, { approved: false, ...rejection });
    },
  };
}

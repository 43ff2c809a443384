/**
 * What happens between members under an upload (issue 27): the one place where a comment, a
 * reply, a mention and a like become known to the rest of the site. The comment and like
 * services call these hooks after their write has committed, once per recipient, never for the
 * actor themselves and never across a block (either way); notifications are built on them.
 *
 * Nothing but notifications listens by default; the composition root may pass more hooks
 * (server/services/index.ts; the API tests record the events through them). Each event used to
 * be published on the event bus although no process subscribed: one NOTIFY per like, queued
 * past 100 within 1.5 s of a 1000 likes/s load (docs/decisions/0031).
 */
import type { MediaType } from '../../src/lib/api/contracts/common.constants.ts';

export interface ConversationEvent {
  /** Who is told: the uploader, the author answered, the member mentioned. */
  recipientUid: number;
  /** Who did it. */
  actorUid: number;
  /** The comment written (absent for a like). */
  commentId?: number;
  mediaType: MediaType;
  mediaId: number;
}
export type ConversationEventKind = 'comment' | 'reply' | 'mention' | 'like';

export interface ConversationEvents {
  /** A top-level comment on the recipient's upload. */
  onComment(event: ConversationEvent): void | Promise<void>;
  /** A reply to the recipient's comment (or to their reply). */
  onReply(event: ConversationEvent): void | Promise<void>;
  /** "@recipient" in a comment or reply (not told again when the same comment is a reply to them). */
  onMention(event: ConversationEvent): void | Promise<void>;
  /** A new like of the recipient's upload (a like taken back and given again is told again). */
  onLike(event: ConversationEvent): void | Promise<void>;
}

/** What the site does besides notifications: nothing yet (a like at 1000/s must not cost a bus message nobody reads). */
export const NO_CONVERSATION_EVENTS: ConversationEvents = { onComment() {}, onReply() {}, onMention() {}, onLike() {} };

/**
 * What happens between members under an upload (issue 27): the one place where a comment, a
 * reply, a mention and a like become known to the rest of the site. The comment and like
 * services call these hooks after their write has committed, once per recipient, never for the
 * actor themselves and never across a block (either way); notifications are built on them.
 *
 * The default publishes each event on the event bus (channel CONVERSATION_CHANNEL, as JSON), so
 * every process sees it; the composition root may pass its own hooks (server/services/index.ts).
 */
import type { EventBus } from '../events/bus.ts';
import type { Logger } from '../logger.ts';
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

export const CONVERSATION_CHANNEL = 'conversation';

/** Each event as `{ kind, ...event }` on the bus; a failed publish is logged, never the writer's problem. */
export function conversationEventsOnBus(bus: EventBus, logger?: Pick<Logger, 'warn'>): ConversationEvents {
  const publish = (kind: ConversationEventKind) => (event: ConversationEvent) => {
    bus.publish(CONVERSATION_CHANNEL, JSON.stringify({ kind, ...event })).catch((error: unknown) => logger?.warn('conversation event not published', { err: error, kind }));
  };
  return { onComment: publish('comment'), onReply: publish('reply'), onMention: publish('mention'), onLike: publish('like') };
}


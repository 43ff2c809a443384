/** Notifications (issue 27): the message centre, its unread count and its settings. */
import { z } from 'zod';
import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  NOTIFICATION_TARGET_TYPES,
} from '../../notifications/kinds.ts';
import { positiveId } from './common.ts';
import { feedCursor } from './feed.ts';

export {
  NOTIFICATION_KINDS,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  CATEGORY_OF,
  NOTIFICATION_ACTORS_SHOWN,
  STAFF_ONLY_KINDS,
  type NotificationKind,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationTargetType,
} from '../../notifications/kinds.ts';

/** `kind` names a tab of the message centre (reply, mention, like, system); without it, every kind. */
export const notificationListQuery = z.object({
  cursor: feedCursor.optional(),
  kind: z.enum(NOTIFICATION_CATEGORIES).optional(),
  pageSize: z.number().int().min(1).max(50).default(20),
});
export const notificationActor = z.object({
  uid: z.number(),
  username: z.string(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
});
export const notificationSchema = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  isRead: z.boolean(),
  /** Epoch ms; an aggregated entry's newest event. */
  createdAt: z.number(),
  /** The newest few actors (up to 3); `actorCount` counts them all. */
  actors: z.array(notificationActor),
  actorCount: z.number(),
  /** What it is about (null when nothing: a system message); `title` as it was when it happened. */
  target: z
    .object({ type: z.enum(NOTIFICATION_TARGET_TYPES), id: z.number(), title: z.string().nullable() })
    .nullable(),
  /** The sentence shown, in the caller's language. */
  text: z.string(),
  /** A quoted comment or the reviewer's note, when there is one. */
  excerpt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListResponse = z.object({
  success: z.literal(true),
  notifications: z.array(notificationSchema),
  nextCursor: z.string().nullable(),
  unreadCount: z.number(),
});
export type NotificationListResponse = z.infer<typeof notificationListResponse>;
/** `unreadCount` counts up to 100 (the bell shows “99+” past 99). */
export const notificationUnreadResponse = z.object({ success: z.literal(true), unreadCount: z.number() });
export type NotificationUnreadResponse = z.infer<typeof notificationUnreadResponse>;
/** Either the ids to mark read (one's own; others' are ignored) or all of them. */
export const notificationReadBody = z.union([
  z.object({ ids: z.array(positiveId).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export const notificationSettingsSchema = z.record(z.enum(NOTIFICATION_KINDS), z.enum(NOTIFICATION_CHANNELS));
export const notificationSettingsResponse = z.object({
  success: z.literal(true),
  settings: z.object(
    Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, z.enum(NOTIFICATION_CHANNELS)])) as Record<
      (typeof NOTIFICATION_KINDS)[number],
      z.ZodEnum<{ site: 'site'; email: 'email'; off: 'off' }>
    >,
  ),
});
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponse>;
export const notificationSettingsBody = z.object({
  kind: z.enum(NOTIFICATION_KINDS),
  channel: z.enum(NOTIFICATION_CHANNELS),
});
/** The live stream's event: how many are unread now. */
export const notificationUnreadEvent = z.object({ unreadCount: z.number() });
export const notificationUnsubscribeQuery = z.object({
  token: z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/, 'is not a token'),
});

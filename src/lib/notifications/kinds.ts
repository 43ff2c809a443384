/**
 * What a member can be notified of (issue 27), the message centre's tab of each kind, and the
 * channels a member chooses per kind. Shared by the server (storage, e-mail) and the site (tabs,
 * settings); framework-free.
 */
export const NOTIFICATION_KINDS = [
  'reply',
  'comment',
  'mention',
  'follow',
  'like',
  'uploadApproved',
  'uploadRejected',
  'reportResolved',
  'reportNew',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The message centre's tabs (回复我的 / @我的 / 收到的赞 / 系统通知). */
export const NOTIFICATION_CATEGORIES = ['reply', 'mention', 'like', 'system'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export const CATEGORY_OF: Record<NotificationKind, NotificationCategory> = {
  reply: 'reply',
  comment: 'reply',
  mention: 'mention',
  like: 'like',
  follow: 'system',
  uploadApproved: 'system',
  uploadRejected: 'system',
  reportResolved: 'system',
  reportNew: 'system',
};

/** site: in the message centre; email: there and in the hourly e-mail digest; off: not at all. */
export const NOTIFICATION_CHANNELS = ['site', 'email', 'off'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Kinds only staff receive (their setting is shown to staff only). */
export const STAFF_ONLY_KINDS: readonly NotificationKind[] = ['reportNew'];

/** What a notification is about. */
export const NOTIFICATION_TARGET_TYPES = ['video', 'audio', 'photo', 'user', 'report'] as const;
export type NotificationTargetType = (typeof NOTIFICATION_TARGET_TYPES)[number];

/** A notification list page's size. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Actors shown by name on one entry ("A, B and 8 others"). */
export const NOTIFICATION_ACTORS_SHOWN = 3;

import { z } from 'zod';
import { defineRoutes } from '../route.ts';
import * as C from '../contracts/notification.ts';

/**
 * Notifications (issue 27): the member's own message centre. Every call reads or changes only
 * the caller's own notifications and settings: another member's ids are never found. The
 * unsubscribe calls carry a signed token instead of a login (the e-mail digest's links, RFC 8058).
 */
export const notificationRoutes = defineRoutes({
  'GET notification/list': {
    tag: 'user',
    summary:
      'The member’s notifications, newest first, a page at a time (cursor), of one tab of the message centre or all, with the unread count.',
    permission: 'notification.read',
    query: C.notificationListQuery,
    response: C.notificationListResponse,
    cache: 'private',
  },
  'GET notification/unreadCount': {
    tag: 'user',
    summary: 'How many of the member’s notifications are unread.',
    permission: 'notification.read',
    response: C.notificationUnreadResponse,
    cache: 'private',
  },
  'GET notification/live': {
    tag: 'user',
    summary:
      'The unread count as it changes, while a page is open: Server-Sent Events (`unread` events), one stream per tab, from any server process.',
    permission: 'notification.read',
    response: C.notificationUnreadEvent,
    stream: { events: { unread: C.notificationUnreadEvent } },
  },
  'POST notification/read': {
    tag: 'user',
    summary: 'Mark the member’s notifications read: these ids (others’ are ignored), or all of them.',
    permission: 'notification.read',
    body: C.notificationReadBody,
    response: C.notificationUnreadResponse,
    cache: 'no-store',
  },
  'GET notification/settings': {
    tag: 'user',
    summary: 'The member’s channel for each kind of notification: site, e-mail (site and the hourly digest) or off.',
    permission: 'notification.read',
    response: C.notificationSettingsResponse,
    cache: 'private',
  },
  'POST notification/settings': {
    tag: 'user',
    summary: 'Choose the channel of one kind of notification.',
    permission: 'notification.read',
    body: C.notificationSettingsBody,
    response: C.notificationSettingsResponse,
    cache: 'no-store',
  },
  'GET notification/unsubscribe': {
    tag: 'user',
    summary:
      'The page an e-mail digest’s unsubscribe link opens: it asks to confirm turning that kind of e-mail off (a GET changes nothing).',
    permission: 'catalogue.read',
    raw: 'html',
    query: C.notificationUnsubscribeQuery,
    response: z.string(),
    cache: 'no-store',
  },
  'POST notification/unsubscribe': {
    tag: 'user',
    summary:
      'One-click unsubscribe (RFC 8058, `List-Unsubscribe=One-Click`): the signed token names the member and the kind, whose e-mails stop (shown on the site still).',
    permission: 'catalogue.read',
    raw: 'html',
    query: C.notificationUnsubscribeQuery,
    response: z.string(),
    cache: 'no-store',
  },
});

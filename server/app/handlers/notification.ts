import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import { notificationUnsubscribeQuery, type NotificationKind } from '#lib/api/contracts/notification.ts';
import { Invalid } from '../../domain/errors.ts';
import { eventStream } from './answers.ts';
import { translatorFor } from '#lib/i18n/catalogs.ts';
import type { CatalogLocale } from '#lib/i18n/locales.ts';

const STREAM_HEADERS = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The unsubscribe link's token, from the query (these two calls read their request themselves). */
function tokenOf(ctx: HandlerContext): string {
  const parsed = notificationUnsubscribeQuery.safeParse({ token: ctx.c.req.query('token') });
  if (!parsed.success) throw new Invalid([{ path: 'token', message: 'is not a valid unsubscribe link' }]);
  return parsed.data.token;
}

/** A small page in the member's language (the link is opened from a mail, without the site around it). */
function page(locale: CatalogLocale, heading: string, body: string) {
  const { t } = translatorFor(locale);
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(t('notifications.unsubscribe.title'))} · Kiraboshi</title><link rel="stylesheet" href="/standalone.css"></head>` +
    `<body><main><h1>${escapeHtml(heading)}</h1>${body}<p><a href="/settings/notifications/">${escapeHtml(t('notifications.unsubscribe.settings'))}</a></p></main></body></html>`
  );
}

/** The kinds a link names, in the member's language. */
const kindNames = (t: ReturnType<typeof translatorFor>['t'], kinds: readonly NotificationKind[]) =>
  kinds.map((kind) => t(`notifications.kinds.${kind}`)).join(t('notifications.separator'));

/** The link's page: what it would turn off, and a one-click form to confirm. */
function askPage({ token, kinds, locale }: { token: string; kinds: NotificationKind[]; locale: CatalogLocale }) {
  const { t } = translatorFor(locale);
  return page(
    locale,
    t('notifications.unsubscribe.title'),
    `<p>${escapeHtml(t('notifications.unsubscribe.ask', { kinds: kindNames(t, kinds) }))}</p><form method="post" action="?token=${escapeHtml(token)}">` +
      `<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(t('notifications.unsubscribe.confirm'))}</button></form>`,
  );
}

/** The confirmation's page: what was turned off. */
function donePage({ kinds, locale }: { kinds: NotificationKind[]; locale: CatalogLocale }) {
  const { t } = translatorFor(locale);
  return page(
    locale,
    t('notifications.unsubscribe.done'),
    `<p>${escapeHtml(t('notifications.unsubscribe.doneText', { kinds: kindNames(t, kinds) }))}</p>`,
  );
}

/** Issue 27: the member's own notifications; `ctx.actor` is always the one whose rows are read or changed. */
export const notificationHandlers: HandlerSet<'notification/'> = {
  'GET notification/list': async (query, { services, actor, locale }) => ({
    success: true,
    ...(await services.notifications.list(actor.uid, query, locale)),
  }),
  'GET notification/unreadCount': async (_input, { services, actor }) => ({
    success: true,
    unreadCount: await services.notifications.unreadCount(actor.uid),
  }),
  'GET notification/live': async (_input, { services, actor, c }) =>
    eventStream(c, STREAM_HEADERS, () => services.notifications.open(actor.uid)),
  'POST notification/read': async (body, { services, actor }) => ({
    success: true,
    unreadCount: await services.notifications.markRead(actor.uid, 'all' in body ? 'all' : body.ids),
  }),
  'GET notification/settings': async (_input, { services, actor }) => ({
    success: true,
    settings: await services.notifications.settings(actor.uid),
  }),
  'POST notification/settings': async ({ kind, channel }, { services, actor }) => ({
    success: true,
    settings: await services.notifications.setChannel(actor.uid, kind, channel),
  }),
  // A GET changes nothing (mail scanners open links): it asks to confirm, with a one-click form.
  'GET notification/unsubscribe': async (_input, ctx) =>
    ctx.c.html(askPage(await ctx.services.notifications.unsubscribeAsk(tokenOf(ctx)))),
  'POST notification/unsubscribe': async (_input, ctx) =>
    ctx.c.html(donePage(await ctx.services.notifications.unsubscribe(tokenOf(ctx)))),
};

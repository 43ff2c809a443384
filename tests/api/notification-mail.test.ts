/**
 * Notification e-mails (issue 27, item 5) through a real SMTP peer: the kinds a member chose
 * "e-mail" come in one digest at most an hour (the test moves the last digest back in time), in the member's language, with
 * RFC 8058 one-click unsubscribe headers whose URL turns those kinds' e-mails off without a login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './harness.ts';
import { startServerWithMail } from './smtp-peer.ts';
import { member } from './media-helpers.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
const header = (raw: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*(?:\\n[ \\t].*)*)`, 'im')
    .exec(raw)?.[1]
    .replace(/\n[ \t]+/g, ' ')
    .trim();

describe.each(BACKENDS)('notification e-mails on %s', (backend) => {
  let running: Awaited<ReturnType<typeof startServerWithMail>>;
  let carol = '';
  let bob = '';
  const setChannel = (cookie: string, kind: string, channel: string) =>
    running.server.api('notification/settings', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ kind, channel }),
    });
  const settingsOf = async (cookie: string) =>
    (await (await running.server.api('notification/settings', { headers: { Cookie: cookie } })).json()).settings;

  beforeAll(async () => {
    running = await startServerWithMail(backend, { NOTIFICATION_DIGEST_CHECK_MS: '0' });
    [carol, bob] = await Promise.all([member(running.server, 'carol'), member(running.server, 'bob')]);
    await running.server.db
      .updateTable('users')
      .set({ interface_language: 'fr' })
      .where('uid', '=', uidOf(carol))
      .execute();
  }, 600_000);
  afterAll(() => running?.close());

  it('sends one digest an hour of the kinds chosen, in the member’s language, with one-click unsubscribe', async () => {
    const { notifications } = running.server.services;
    expect((await setChannel(carol, 'reply', 'email')).status).toBe(200);
    expect((await setChannel(carol, 'like', 'email')).status).toBe(200);
    const target = { type: 'video' as const, id: 1, title: 'Mon clip' };
    await notifications.notify({
      kind: 'reply',
      recipientUid: uidOf(carol),
      actorUid: uidOf(bob),
      target,
      excerpt: 'Bien vu !',
    });
    await notifications.notify({ kind: 'like', recipientUid: uidOf(carol), actorUid: uidOf(bob), target });
    // A kind left on "site" is not mailed.
    await notifications.notify({ kind: 'mention', recipientUid: uidOf(carol), actorUid: uidOf(bob), target });
    expect(await notifications.sendDigests()).toBe(1);
    const [mail] = await running.smtp.waitForMails('carol@example.com', 1);
    expect(mail.subject).toBe('2 nouvelles notifications sur Kiraboshi');
    expect(mail.text).toContain('bob a répondu à votre commentaire sur « Mon clip »');
    expect(mail.text).toContain('bob a aimé « Mon clip »');
    expect(mail.text).not.toContain('mentionné');
    expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = /^<(.+)>$/.exec(header(mail.raw, 'List-Unsubscribe') ?? '')?.[1];
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/notification\/unsubscribe\?token=/);

    // Within the hour nothing more goes; after it, what came meanwhile does, once.
    await notifications.notify({
      kind: 'reply',
      recipientUid: uidOf(carol),
      actorUid: uidOf(bob),
      target: { ...target, id: 2 },
      excerpt: 'Encore',
    });
    expect(await notifications.sendDigests()).toBe(0);
    // An hour later (the last digest's time moved back, as the clock would).
    await running.server.db
      .updateTable('notification_digests')
      .set({ sent_at: new Date(Date.now() - 3_600_000 - 1000) })
      .where('uid', '=', uidOf(carol))
      .execute();
    expect(await notifications.sendDigests()).toBe(1);
    expect(await notifications.sendDigests()).toBe(0);
    const second = (await running.smtp.waitForMails('carol@example.com', 2))[1];
    expect(second.text).toContain('Encore');
    expect(second.text).not.toContain('a aimé');

    // Opening the link changes nothing; the one-click POST (no login) turns those e-mails off.
    const page = await fetch(link!);
    expect(page.status).toBe(200);
    const confirmPage = await page.text();
    expect(confirmPage).toContain('method="post"');
    // Styled by the site's standalone sheet (public/standalone.css), which its policy allows.
    expect(confirmPage).toContain('<link rel="stylesheet" href="/standalone.css">');
    expect(page.headers.get('content-security-policy')).toMatch(/style-src 'self'/);
    expect((await settingsOf(carol)).reply).toBe('email');
    const tampered = link!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(
      (
        await fetch(tampered, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        })
      ).status,
    ).toBe(400);
    const done = await fetch(link!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Vous ne recevrez plus d’e-mails');
    expect(await settingsOf(carol)).toMatchObject({ reply: 'site', like: 'site' });
    expect(
      (await fetch(`${running.server.baseUrl}/api/notification/unsubscribe?token=nonsense`, { method: 'POST' })).status,
    ).toBe(400);
    expect((await fetch(`${running.server.baseUrl}/api/notification/unsubscribe`)).status).toBe(400);
  });
});

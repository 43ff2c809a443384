/**
 * Accounts as a visitor uses them: sign up with the code from the outbox and an invitation code,
 * see the session in the top bar, log out, log in again; guests asked to log in; the
 * administrator's pages opened by a logged-in administrator.
 */
import { expect, test, type Page } from '@playwright/test';
import { adminRequest, invitationCodes, mailedCode, mailsTo, msg, noteToasts } from './helpers.ts';
import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import sharp from 'sharp';

const PASSWORD = 'twinkle twinkle little star';

async function openLogin(page: Page) {
  await page.locator('[data-auth-button]').click();
  await expect(page.locator('dialog.auth-dialog')).toBeVisible();
}

async function logIn(page: Page, email: string, password: string) {
  await openLogin(page);
  const dialog = page.locator('dialog.auth-dialog');
  await dialog.locator('input[name=email]').fill(email);
  await dialog.locator('input[name=password]').fill(password);
  await dialog.locator('button[type=submit]').click();
}

/** Signs up through the dialog on an English page, with the mailed code and an invitation code. */
async function signUp(page: Page, email: string, username: string, nickname: string, invitation: number) {
  await page.goto('/en/');
  await openLogin(page);
  const dialog = page.locator('dialog.auth-dialog');
  await dialog.getByRole('button', { name: 'Sign up' }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Join Kiraboshi');
  await dialog.locator('input[name=email]').fill(email);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  await expect(dialog.getByRole('status')).toHaveText(`We sent a 6-digit code to ${email}.`);
  await expect(dialog.getByRole('button', { name: /Resend in \d+ s/ })).toBeDisabled();
  await dialog.locator('input[name=verificationCode]').fill(await mailedCode(email));
  await dialog.locator('input[name=username]').fill(username);
  await dialog.locator('input[name=userNickname]').fill(nickname);
  await dialog.locator('input[name=password]').fill(PASSWORD);
  await dialog.locator('input[name=invitationCode]').fill(invitationCodes()[invitation]);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog).toBeHidden();
}

test('a visitor signs up with a mailed code and an invitation code, logs out and logs back in', async ({ page }) => {
  await signUp(page, 'mikan@kiraboshi.test', 'Mikan', 'みかん', 0);
  await expect(page.locator('.toast')).toContainText('Your account is ready. Welcome to Kiraboshi!');
  const button = page.locator('[data-auth-button]');
  await expect(button).toHaveText('みかん');
  await button.click();
  await expect(page).toHaveURL(/\/en\/user\/\d+$/);
  await expect(page.locator('h1')).toHaveText('みかん');

  const toasts = await noteToasts(page);
  await page.locator('[data-logout]').click();
  await expect.poll(toasts).toContainEqual(expect.stringContaining('You have logged out.'));
  await expect(button).toHaveText('Log in');
  await page.reload();
  await expect(page.locator('[data-auth-button]')).toHaveText('Log in');

  await logIn(page, 'mikan@kiraboshi.test', PASSWORD);
  await expect(page.locator('[data-auth-button]')).toHaveText('みかん');
  await page.goto('/en/user');
  await expect(page).toHaveURL(/\/en\/user\/\d+$/);
});

test('the sign-up form says what is taken or unusable while it is typed, before any submit', async ({ page }) => {
  await page.goto('/en/');
  await openLogin(page);
  const dialog = page.locator('dialog.auth-dialog');
  await dialog.getByRole('button', { name: 'Sign up' }).click();
  const email = dialog.locator('input[name=email]');
  await email.fill('admin@kiraboshi.test');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText(msg('en', 'auth.emailTaken'));
  await email.fill('somebody-new@kiraboshi.test');
  await expect(email).not.toHaveAttribute('aria-invalid');
  await dialog.locator('input[name=username]').fill('Admin');
  await expect(dialog).toContainText(msg('en', 'auth.usernameTaken'));
  const invitation = dialog.locator('input[name=invitationCode]');
  await invitation.fill('KIRA-0000-0000');
  await expect(invitation).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText(msg('en', 'api.invitationCodeInvalid'));
  // A code of its own (the listed ones belong to the sign-up tests): a lookup never uses it up.
  const fresh = (await (await (await adminRequest()).post('/api/user/createInvitationCode')).json()) as {
    invitationCodeResult: { invitationCode: string };
  };
  await invitation.fill(fresh.invitationCodeResult.invitationCode);
  await expect(invitation).not.toHaveAttribute('aria-invalid');
  await expect(dialog).toContainText(msg('en', 'auth.invitationHint'));
});

test('a wrong password is refused in the visitor’s language, without a hint', async ({ page }) => {
  await page.goto('/ja/');
  await logIn(page, 'admin@kiraboshi.test', 'not the password');
  await expect(page.locator('.auth-error')).toHaveText('メールアドレスまたはパスワードが正しくありません。');
  await expect(page.locator('dialog.auth-dialog')).toBeVisible();
});

test('guests are asked to log in instead of opening upload', async ({ page }) => {
  await page.goto('/en/search');
  await page.locator('#side-bar').getByRole('link', { name: 'Upload' }).click();
  // The toast shows at once (for 2 s); the dialog follows when its code has loaded.
  await expect(page.locator('.toast')).toContainText('Log in to continue.');
  await expect(page.locator('dialog.auth-dialog')).toBeVisible();
  await expect(page).toHaveURL(/\/en\/search$/);
});

test('the own page tells a guest and an expired session apart', async ({ page, context }) => {
  await page.goto('/user');
  await expect(page.locator('[data-own-page]')).toHaveAttribute('data-state', 'guest');
  await expect(page.locator('[data-guest-message]')).toHaveText('你尚未登录，请登录后再试');
  await context.addCookies([
    { name: 'uid', value: '424242', url: page.url() },
    { name: 'token', value: 'stale', url: page.url() },
  ]);
  await page.goto('/user');
  await expect(page.locator('[data-own-page]')).toHaveAttribute('data-state', 'expired');
  await expect(page.locator('[data-guest-message]')).toHaveText('你的登录信息已失效，请重新登录');
});

test('an administrator opens the administrator settings pages', async ({ page }) => {
  await page.goto('/en/');
  await logIn(page, 'admin@kiraboshi.test', 'e2e administrator secret');
  await expect(page.locator('[data-auth-button]')).toHaveText('Admin');
  const response = await page.goto('/en/settings/user-info');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/en\/settings\/user-info$/);
  await expect(page.locator('h1')).toHaveText('Profile review');
});

test('the logout button is shown to members only, and the sign-up form fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 760 });
  await page.goto('/ko/');
  await expect(page.locator('[data-logout]')).toBeHidden();
  await openLogin(page);
  await page.locator('dialog.auth-dialog .auth-switch .link-button').click();
  const dialog = await page.locator('dialog.auth-dialog').boundingBox();
  const send = await page.locator('dialog.auth-dialog .code-row .button').boundingBox();
  expect(send!.x + send!.width).toBeLessThanOrEqual(dialog!.x + dialog!.width);
});

test('a member turns on TOTP, keeps the backup codes, and logs back in with a generated code', async ({ page }) => {
  await signUp(page, 'yuzu@kiraboshi.test', 'Yuzu', 'ゆず', 1);
  await page.goto('/en/settings/security');
  const card = page.locator('.security-card[data-security-state]');
  await expect(card).toHaveAttribute('data-security-state', 'off');
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.locator('img.totp-qr')).toBeVisible();
  const key = (await card.locator('[data-totp-key]').textContent())!;
  const totp = new TOTP({ secret: Secret.fromBase32(key), period: 30, digits: 6 });
  await card.locator('input[name=totp]').fill(totp.generate());
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card).toHaveAttribute('data-security-state', 'codes');
  await expect(card.locator('[data-backup-codes] li')).toHaveCount(5);
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download as .txt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('kiraboshi-backup-codes-yuzu@kiraboshi.test.txt');
  const text = readFileSync(await file.path(), 'utf8');
  for (const code of await card.locator('[data-backup-codes] code').allTextContents()) expect(text).toContain(code);
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card).toHaveAttribute('data-security-state', 'on');

  await page.goto('/en/');
  await page.locator('[data-logout]').click();
  await expect(page.locator('[data-auth-button]')).toHaveText('Log in');
  await logIn(page, 'yuzu@kiraboshi.test', PASSWORD);
  const otp = page.locator('dialog.auth-dialog input[name=clientOtp]');
  await expect(otp).toBeVisible();
  // The confirming code used this 30-second step; the phone's next code (+1 step) is accepted.
  await otp.fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.locator('dialog.auth-dialog button[type=submit]').click();
  await expect(page.locator('[data-auth-button]')).toHaveText('ゆず');
});

test('a member edits the profile and sees it on their page; an administrator reviews it and bans and unbans', async ({
  page,
  browser,
}) => {
  await signUp(page, 'kaede@kiraboshi.test', 'Kaede', 'かえで', 2);
  await page.goto('/en/settings/profile');
  const form = page.locator('form.profile-form');
  await expect(form.locator('input[name=username]')).toHaveValue('Kaede');
  await form.locator('input[name=userNickname]').fill('紅葉');
  await form.locator('textarea[name=signature]').fill('I draw fan art and love danmaku.');
  await form.locator('select[name=gender]').selectOption('other');
  await form.locator('input[name=tag]').fill('VOCALOID');
  await form.locator('input[name=tag]').press('Enter');
  await form.locator('input[name=tag]').fill('illustration');
  await form.getByRole('button', { name: 'Add' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.toast')).toContainText('Profile saved.');
  const picture = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#f06e8e' } })
    .png()
    .toBuffer();
  await form.locator('input[name=avatar]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
  const cropper = form.locator('[data-cropper]');
  await expect(cropper).toContainText('Frame your avatar');
  await cropper.locator('input[name=zoom]').fill('2');
  const viewport = await cropper.locator('.crop-viewport').boundingBox();
  // The wheel over the frame zooms it (src/lib/gestures): up zooms in, and the page does not scroll.
  await page.mouse.move(viewport!.x + 120, viewport!.y + 120);
  const scrolled = await page.evaluate(() => scrollY);
  await page.mouse.wheel(0, -100);
  await expect
    .poll(async () => Number(await cropper.locator('input[name=zoom]').inputValue()))
    .toBeCloseTo(2 * 2 ** 0.7, 2);
  expect(await page.evaluate(() => scrollY)).toBe(scrolled);
  await page.mouse.wheel(0, 100);
  await expect.poll(async () => Number(await cropper.locator('input[name=zoom]').inputValue())).toBeCloseTo(2, 2);
  await page.mouse.move(viewport!.x + 120, viewport!.y + 120);
  await page.mouse.down();
  await page.mouse.move(viewport!.x + 60, viewport!.y + 100, { steps: 5 });
  await page.mouse.up();
  await cropper.getByRole('button', { name: 'Use this picture' }).click();
  await expect(page.locator('.toast').last()).toContainText('Your new avatar is up.');
  await expect(cropper).toHaveCount(0);
  await expect(form.locator('img.avatar-large')).toHaveAttribute('src', /^\/media\/images\/avatars\/\d+-[\w-]+\.webp$/);
  await form
    .locator('input[name=avatar]')
    .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await expect(form.locator('.avatar-row .auth-error')).toContainText('This file is not an image we can read.');
  await form.getByRole('link', { name: 'View my page' }).click();
  const avatar = page.locator('.user-header img.avatar-large');
  await expect(avatar).toHaveAttribute('src', /\/media\/images\/avatars\//);
  expect(await avatar.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(256);
  await expect(page.locator('h1')).toHaveText('紅葉');
  await expect(page.locator('.user-signature')).toHaveText('I draw fan art and love danmaku.');
  await expect(page.locator('.user-tags li')).toHaveText(['VOCALOID', 'illustration']);
  const uid = /\/user\/(\d+)$/.exec(page.url())![1];

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/en/');
  await logIn(admin, 'admin@kiraboshi.test', 'e2e administrator secret');
  await expect(admin.locator('[data-auth-button]')).toHaveText('Admin');
  await admin.goto('/en/settings/user-info');
  const item = admin.locator(`.review-item[data-uid="${uid}"]`);
  await expect(item).toContainText('I draw fan art and love danmaku.');
  await item.getByRole('button', { name: 'Approve' }).click();
  await expect(admin.locator('.toast')).toContainText('Profile approved.');
  await expect(item).toHaveCount(0);

  await admin.goto('/en/settings/user-block');
  await admin.locator('[data-user-block] input[name=uid]').fill(uid);
  await admin.getByRole('button', { name: 'Ban', exact: true }).click();
  await expect(admin.locator('.toast').last()).toContainText(`User ${uid} is banned.`);
  const banned = admin.locator(`[data-user-block] .review-item[data-uid="${uid}"]`);
  await expect(banned).toContainText('紅葉');
  // The banned member can still read but no longer post.
  await page.goto('/en/settings/profile');
  await page.locator('form.profile-form textarea[name=signature]').fill('still here');
  await page.locator('form.profile-form').getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.auth-error')).toHaveText('Your account is banned, so you cannot post.');
  await banned.getByRole('button', { name: 'Lift ban' }).click();
  await expect(admin.locator('.toast').last()).toContainText(`The ban on user ${uid} is lifted.`);
  await expect(banned).toHaveCount(0);
  await adminContext.close();
});

test('members see their invitation codes; a new account is told it must wait; staff create codes', async ({
  page,
  browser,
}) => {
  await signUp(page, 'sora@kiraboshi.test', 'Sora', 'そら', 3);
  await page.goto('/en/settings/invitation-code');
  const section = page.locator('[data-invitation-codes]');
  await expect(section).toContainText('You have not made any invitation codes yet.');
  await section.getByRole('button', { name: 'Create a code' }).click();
  await expect(section.locator('.auth-error')).toHaveText('Your account must be at least 7 days old to do this.');
  await expect(page.locator('.settings-group[data-staff-only]')).toBeHidden();

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.goto('/en/');
  await logIn(admin, 'admin@kiraboshi.test', 'e2e administrator secret');
  await expect(admin.locator('[data-auth-button]')).toHaveText('Admin');
  await admin.goto('/en/settings/invitation-code');
  await expect(admin.locator('.settings-group[data-staff-only]')).toBeVisible();
  const adminSection = admin.locator('[data-invitation-codes]');
  await adminSection.getByRole('button', { name: 'Create a code' }).click();
  await expect(adminSection.locator('.invitation-code').first()).toHaveText(/^KIRA-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  await expect(adminSection.locator('.review-item').first()).toContainText('Not used yet');
  await adminContext.close();
});

test('a member switches to e-mail codes and logs in with the code from the outbox', async ({ page }) => {
  await signUp(page, 'hana@kiraboshi.test', 'Hana', 'はな', 4);
  await page.goto('/en/settings/security');
  const card = page.locator('.security-card[data-security-state]');
  await card.getByRole('button', { name: 'Use e-mail codes' }).click();
  await expect(card).toHaveAttribute('data-security-state', 'email');
  await expect(card).toContainText('A code is mailed to you at each login.');

  await page.goto('/en/');
  await page.locator('[data-logout]').click();
  await expect(page.locator('[data-auth-button]')).toHaveText('Log in');
  await logIn(page, 'hana@kiraboshi.test', PASSWORD);
  const dialog = page.locator('dialog.auth-dialog');
  await expect(dialog.locator('input[name=clientOtp]')).toBeVisible();
  await dialog.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(dialog.getByRole('status')).toHaveText('We sent a code to your e-mail address.');
  await dialog.locator('input[name=clientOtp]').fill(await mailedCode('hana@kiraboshi.test'));
  await dialog.locator('button[type=submit]').click();
  await expect(page.locator('[data-auth-button]')).toHaveText('はな');
});

test('a member resets a forgotten password, then changes the password and the e-mail address', async ({ page }) => {
  await signUp(page, 'riku@kiraboshi.test', 'Riku', 'りく', 5);
  await page.locator('[data-logout]').click();
  await expect(page.locator('[data-auth-button]')).toHaveText('Log in');

  await openLogin(page);
  const dialog = page.locator('dialog.auth-dialog');
  await dialog.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Reset your password');
  await dialog.locator('input[name=email]').fill('riku@kiraboshi.test');
  const mailsBefore = mailsTo('riku@kiraboshi.test');
  await dialog.getByRole('button', { name: 'Send code' }).click();
  // The answer does not say whether the address has an account.
  await expect(dialog.getByRole('status')).toHaveText(
    'If an account uses riku@kiraboshi.test, we sent it a 6-digit code. It can take a minute; look in the spam folder too.',
  );
  // The reset mail goes after the answer: wait for it, not the registration mail before it (a mail
  // another test sends meanwhile does not count).
  await expect.poll(() => mailsTo('riku@kiraboshi.test'), { timeout: 10_000 }).toBeGreaterThan(mailsBefore);
  await dialog.locator('input[name=verificationCode]').fill(await mailedCode('riku@kiraboshi.test'));
  await dialog.locator('input[name=password]').fill('a brand new passphrase');
  await dialog.locator('button[type=submit]').click();
  await expect(page.locator('.toast').last()).toContainText('Your password is changed.');
  await expect(dialog.getByRole('heading')).toHaveText('Welcome back');
  await dialog.locator('input[name=password]').fill('a brand new passphrase');
  await dialog.locator('button[type=submit]').click();
  await expect(page.locator('[data-auth-button]')).toHaveText('りく');

  await page.goto('/en/settings/security');
  const pw = page.locator('[data-change-password]');
  await pw.locator('input[name=oldPassword]').fill('a brand new passphrase');
  await pw.locator('input[name=newPassword]').fill('an even newer passphrase');
  await pw.getByRole('button', { name: 'Send me a code' }).click();
  await expect(page.locator('.toast').last()).toContainText('We sent a code to your e-mail address.');
  await pw.locator('input[name=code]').fill(await mailedCode('riku@kiraboshi.test'));
  await pw.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('.toast').last()).toContainText('Password changed.');

  const em = page.locator('[data-change-email]');
  await expect(em).toContainText('Current address: riku@kiraboshi.test');
  await em.locator('input[name=newEmail]').fill('riku.new@kiraboshi.test');
  await em.getByRole('button', { name: 'Send a code to the new address' }).click();
  await em.locator('input[name=password]').fill('an even newer passphrase');
  await em.locator('input[name=code]').fill(await mailedCode('riku.new@kiraboshi.test'));
  await em.getByRole('button', { name: 'Change e-mail address' }).click();
  await expect(page.locator('.toast').last()).toContainText('Your e-mail address is changed.');
  await expect(em).toContainText('Current address: riku.new@kiraboshi.test');
});

test('the dashboard shows the account at a glance in the page language', async ({ page }) => {
  await page.goto('/ja/');
  await logIn(page, 'admin@kiraboshi.test', 'e2e administrator secret');
  await expect(page.locator('[data-auth-button]')).toHaveText('Admin');
  await page.goto('/ja/settings/dashboard');
  const dashboard = page.locator('[data-dashboard]');
  await expect(dashboard.locator('h2')).toHaveText('あなたのアカウント');
  await expect(dashboard).toContainText('admin@kiraboshi.test');
  await expect(dashboard).toContainText('管理者');
  await expect(dashboard).toContainText(/作成 \d+ 件・使用済み \d+ 件/);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestServer } from './harness.ts';
import { startServerWithMail, type SmtpPeer } from './smtp-peer.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { guessUntilUnderAttack } from './login-attack.ts';

const PASSWORD = 'letters from the stars';

describe.each(BACKENDS)('two-factor login by e-mail on %s', (backend) => {
  let server: TestServer;
  let smtp: SmtpPeer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, smtp, close: stop } = await startServerWithMail(backend, { TRUST_PROXY: '1' }));
  });
  afterAll(() => stop?.());

  let ip = 0;
  async function call(path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
    const response = await server.api(path, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: {
        'Content-Type': 'application/json',
        'Accept-Language': 'en',
        'X-Forwarded-For': `198.18.0.${++ip % 250}`,
        ...(init.cookie ? { Cookie: init.cookie } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
  }
  const cookieOf = (headers: Headers) =>
    headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

  it('mails a login code after the right password, and turns off with the password and a mailed code', async () => {
    const email = 'mailfactor@example.com';
    await insertAccount(createRepositories(server.db), { email, password: PASSWORD, username: 'MailFactor' });
    const cookie = cookieOf((await call('user/login', { body: { email, password: PASSWORD } })).headers);
    expect((await call('user/createEmailAuthenticator', { method: 'POST', cookie })).status).toBe(200);
    expect((await call('user/checkUserHave2FAByUUID', { cookie })).json).toMatchObject({
      have2FA: true,
      type: 'email',
    });
    expect((await call('user/self', { method: 'POST', cookie })).json.result.authenticatorType).toBe('email');
    const totp = await call('user/createTotpAuthenticator', { method: 'POST', cookie });
    expect([totp.status, totp.json.existsAuthenticatorType]).toEqual([409, 'email']);

    const first = await call('user/login', { body: { email, password: PASSWORD } });
    expect([first.status, first.json.code, first.json.authenticatorType]).toEqual([
      401,
      'SECOND_FACTOR_REQUIRED',
      'email',
    ]);
    const sentBefore = smtp.mails.length;
    expect(
      (
        await call('user/sendUserEmailAuthenticator', {
          body: { email, password: 'not my password', clientLanguage: 'en' },
        })
      ).json.code,
    ).toBe('INVALID_CREDENTIALS');
    expect(smtp.mails.length).toBe(sentBefore);
    expect(
      (await call('user/sendUserEmailAuthenticator', { body: { email, password: PASSWORD, clientLanguage: 'en' } }))
        .status,
    ).toBe(200);
    expect(smtp.mails.at(-1)!.text).toContain('logging in');
    const code = smtp.codeFor(email);
    expect(
      (
        await call('user/login', {
          body: { email, password: PASSWORD, verificationCode: code === '000000' ? '111111' : '000000' },
        })
      ).json.code,
    ).toBe('VERIFICATION_CODE_INVALID');
    expect((await call('user/login', { body: { email, password: PASSWORD, verificationCode: code } })).status).toBe(
      200,
    );
    expect((await call('user/login', { body: { email, password: PASSWORD, verificationCode: code } })).json.code).toBe(
      'VERIFICATION_CODE_INVALID',
    );

    expect(
      (await call('user/sendDeleteUserEmailAuthenticator', { method: 'POST', body: { clientLanguage: 'en' }, cookie }))
        .status,
    ).toBe(200);
    expect(smtp.mails.at(-1)!.text).toContain('turning off two-factor authentication');
    const deleteCode = smtp.codeFor(email);
    expect(
      (
        await call('user/deleteUserEmailAuthenticator', {
          method: 'DELETE',
          body: { password: 'wrong password', verificationCode: deleteCode },
          cookie,
        })
      ).json.code,
    ).toBe('INVALID_CREDENTIALS');
    expect(
      (
        await call('user/deleteUserEmailAuthenticator', {
          method: 'DELETE',
          body: { password: PASSWORD, verificationCode: deleteCode },
          cookie,
        })
      ).status,
    ).toBe(200);
    expect((await call('user/login', { body: { email, password: PASSWORD } })).status).toBe(200);
  });

  it('lets the owner of an account guessed at from many addresses in with the mailed code', async () => {
    const email = 'mailbesieged@example.com';
    await insertAccount(createRepositories(server.db), { email, password: PASSWORD, username: 'MailBesieged' });
    const cookie = cookieOf((await call('user/login', { body: { email, password: PASSWORD } })).headers);
    expect((await call('user/createEmailAuthenticator', { method: 'POST', cookie })).status).toBe(200);
    await guessUntilUnderAttack(server, email, '100.65');
    const seen = (answer: { status: number; json: Record<string, any> }) => ({
      status: answer.status,
      ...answer.json,
      requestId: null,
    });
    const right = await call('user/login', { body: { email, password: PASSWORD } });
    expect([right.status, right.json.code, right.json.authenticatorType]).toEqual([
      401,
      'SECOND_FACTOR_REQUIRED',
      'email',
    ]);
    expect(seen(await call('user/login', { body: { email, password: 'not the password' } }))).toEqual(seen(right));
    const mailed = smtp.mails.length;
    expect(
      (
        await call('user/sendUserEmailAuthenticator', {
          body: { email, password: 'not the password', clientLanguage: 'en' },
        })
      ).json,
    ).toEqual({ success: true, isCoolingDown: false });
    expect(smtp.mails.length).toBe(mailed);
    expect(
      (await call('user/sendUserEmailAuthenticator', { body: { email, password: PASSWORD, clientLanguage: 'en' } }))
        .status,
    ).toBe(200);
    const code = smtp.codeFor(email);
    const wrongCode = await call('user/login', {
      body: { email, password: PASSWORD, verificationCode: code === '000000' ? '111111' : '000000' },
    });
    expect([wrongCode.status, wrongCode.json.code]).toEqual([401, 'PASSWORD_OR_CODE_INVALID']);
    expect(
      seen(await call('user/login', { body: { email, password: 'not the password', verificationCode: code } })),
    ).toEqual(seen(wrongCode));
    expect((await call('user/login', { body: { email, password: PASSWORD, verificationCode: code } })).status).toBe(
      200,
    );
  });

  it('is refused while TOTP is on, and answers 404 for accounts without it', async () => {
    const email = 'nofactor@example.com';
    await insertAccount(createRepositories(server.db), { email, password: PASSWORD, username: 'NoFactor' });
    expect((await call('user/sendUserEmailAuthenticator', { body: { email, password: PASSWORD } })).status).toBe(404);
    expect((await call('user/createEmailAuthenticator', { method: 'POST' })).status).toBe(401);
  });
});

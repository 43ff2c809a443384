import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { startServerWithMail, type SmtpPeer } from './smtp-peer.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createSession } from '../../server/auth/sessions.ts';

const OLD = 'first secret phrase';
const NEW = 'second secret phrase';

describe.each(BACKENDS)('changing credentials on %s', (backend) => {
  let server: TestServer;
  let smtp: SmtpPeer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, smtp, close: stop } = await startServerWithMail(backend, {}));
  });
  afterAll(() => stop?.());

  async function call(path: string, init: { body?: unknown; cookie?: string } = {}) {
    const response = await server.api(path, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', ...(init.cookie ? { Cookie: init.cookie } : {}) },
      body: JSON.stringify(init.body ?? {}),
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  }
  const check = async (cookie: string) => (await (await server.api('user/check', { headers: { Cookie: cookie } })).json()).userTokenOk;
  async function member(name: string) {
    const repositories = createRepositories(server.db);
    const uid = await insertAccount(repositories, { email: `${name}@example.com`, password: OLD, username: name });
    const sessions = [await createSession(repositories, uid), await createSession(repositories, uid)];
    return { uid, email: `${name}@example.com`, cookies: sessions.map((token) => `uid=${uid}; token=${token}`) };
  }

  it('changes the password with the old one and a mailed code, and signs out the other sessions', async () => {
    const me = await member('Changer');
    expect((await call('user/requestSendChangePasswordVerificationCode', { cookie: me.cookies[0], body: { clientLanguage: 'en' } })).status).toBe(200);
    const code = smtp.codeFor(me.email);
    expect(smtp.mails.at(-1)!.text).toContain('changing your password');
    expect((await call('user/update/password', { cookie: me.cookies[0], body: { oldPassword: 'wrong one here', newPassword: NEW, verificationCode: code } })).json.code).toBe('INVALID_CREDENTIALS');
    expect((await call('user/update/password', { cookie: me.cookies[0], body: { oldPassword: OLD, newPassword: 'password1', verificationCode: code } })).json.code).toBe('WEAK_PASSWORD');
    expect((await call('user/update/password', { cookie: me.cookies[0], body: { oldPassword: OLD, newPassword: NEW, verificationCode: code } })).status).toBe(200);
    expect(await check(me.cookies[0])).toBe(true);
    expect(await check(me.cookies[1])).toBe(false);
    expect((await call('user/login', { body: { email: me.email, password: OLD } })).status).toBe(401);
    expect((await call('user/login', { body: { email: me.email, password: NEW } })).status).toBe(200);
    expect((await call('user/update/password', { cookie: me.cookies[0], body: { oldPassword: NEW, newPassword: OLD, verificationCode: code } })).json.code).toBe('VERIFICATION_CODE_INVALID');
  });

  it('resets a forgotten password with a mailed code and signs out everywhere; unknown addresses look the same', async () => {
    const me = await member('Forgetful');
    expect((await call('user/requestSendForgotPasswordVerificationCode', { body: { email: 'FORGETFUL@example.com', clientLanguage: 'en' } })).status).toBe(200);
    expect(smtp.mails.at(-1)!.text).toContain('resetting your password');
    const before = smtp.mails.length;
    expect((await call('user/requestSendForgotPasswordVerificationCode', { body: { email: 'nobody-here@example.com' } })).json).toEqual({ success: true, isCoolingDown: false });
    expect(smtp.mails.length).toBe(before);
    expect((await call('user/forgot/password', { body: { email: 'nobody-here@example.com', newPassword: NEW, verificationCode: '123456' } })).json.code).toBe('VERIFICATION_CODE_INVALID');
    expect((await call('user/forgot/password', { body: { email: me.email, newPassword: NEW, verificationCode: smtp.codeFor(me.email) } })).status).toBe(200);
    expect(await check(me.cookies[0])).toBe(false);
    expect(await check(me.cookies[1])).toBe(false);
    expect((await call('user/login', { body: { email: me.email, password: NEW } })).status).toBe(200);
  });

  it('answers a forgotten-password reset the same for an address without an account until the code is right', async () => {
    const me = await member('Guarded');
    await call('user/requestSendForgotPasswordVerificationCode', { body: { email: me.email, clientLanguage: 'en' } });
    const code = smtp.codeFor(me.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const reset = (email: string, newPassword: string, verificationCode: string) => call('user/forgot/password', { body: { email, newPassword, verificationCode } });
    const seen = (answer: { status: number; json: Record<string, any> }) => ({ status: answer.status, ...answer.json, requestId: null });
    // A weak new password with a wrong code, then a strong one: the code is judged first, for both addresses alike.
    for (const newPassword of ['password1', NEW]) {
      const known = seen(await reset(me.email, newPassword, wrong));
      const unknown = seen(await reset('nobody-at-all@example.com', newPassword, wrong));
      expect(known).toEqual(unknown);
      expect(known).toMatchObject({ status: 400, code: 'VERIFICATION_CODE_INVALID' });
    }
    // With the right code the password is judged, and a weak one leaves the code usable.
    const weak = await reset(me.email, 'password1', code);
    expect([weak.status, weak.json.code]).toEqual([400, 'WEAK_PASSWORD']);
    expect((await reset(me.email, NEW, code)).status).toBe(200);
    expect((await call('user/login', { body: { email: me.email, password: NEW } })).status).toBe(200);
  });

  it('changes the e-mail address with the password and a code sent to the new address', async () => {
    const me = await member('Mover');
    await member('Occupant');
    expect((await call('user/requestSendChangeEmailVerificationCode', { cookie: me.cookies[0], body: { newEmail: 'occupant@example.com' } })).json.code).toBe('EMAIL_TAKEN');
    expect((await call('user/requestSendChangeEmailVerificationCode', { body: { newEmail: 'x@example.com' } })).status).toBe(401);
    expect((await call('user/requestSendChangeEmailVerificationCode', { cookie: me.cookies[0], body: { newEmail: 'moved@example.org', clientLanguage: 'en' } })).status).toBe(200);
    const code = smtp.codeFor('moved@example.org');
    const body = { oldEmail: me.email, newEmail: 'moved@example.org', password: OLD, verificationCode: code };
    expect((await call('user/update/email', { cookie: me.cookies[0], body: { ...body, password: 'not the password' } })).json.code).toBe('INVALID_CREDENTIALS');
    expect((await call('user/update/email', { cookie: me.cookies[0], body: { ...body, oldEmail: 'someone@else.com' } })).json.code).toBe('INVALID_CREDENTIALS');
    expect((await call('user/update/email', { cookie: me.cookies[0], body })).status).toBe(200);
    expect((await call('user/login', { body: { email: 'moved@example.org', password: OLD } })).status).toBe(200);
    expect((await call('user/login', { body: { email: me.email, password: OLD } })).status).toBe(401);
  });
});

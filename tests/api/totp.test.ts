import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { guessUntilUnderAttack } from './login-attack.ts';

const PASSWORD = 'moonlight serenade';

/** A code as the visitor's phone shows it, `offsetSteps` periods away from now (clock drift). */
function codeAt(otpAuth: string, offsetSteps = 0): string {
  const secret = new URL(otpAuth).searchParams.get('secret')!;
  return new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}

describe.each(BACKENDS)('two-factor login (TOTP) on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => server?.close());

  let ip = 0;
  async function call(path: string, init: { method?: string; body?: unknown; cookie?: string } = {}) {
    const response = await server.api(path, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': `203.0.113.${++ip % 250}`,
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

  async function enrolled(name: string) {
    const email = `${name}@example.com`;
    await insertAccount(createRepositories(server.db), { email, password: PASSWORD, username: name });
    const cookie = cookieOf((await call('user/login', { body: { email, password: PASSWORD } })).headers);
    const created = await call('user/createTotpAuthenticator', { method: 'POST', cookie });
    expect(created.status).toBe(200);
    const otpAuth: string = created.json.result.otpAuth;
    const confirmed = await call('user/confirmUserTotpAuthenticator', {
      body: { clientOtp: codeAt(otpAuth), otpAuth },
      cookie,
    });
    expect(confirmed.status).toBe(200);
    return { email, cookie, otpAuth, ...(confirmed.json.result as { backupCode: string[]; recoveryCode: string }) };
  }

  it('sets up with an otpauth URI naming the site, and gives backup and recovery codes once', async () => {
    const { otpAuth, backupCode, recoveryCode, cookie, email } = await enrolled('TotpSetup');
    const uri = new URL(otpAuth);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('Kiraboshi');
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    expect(backupCode).toHaveLength(5);
    for (const code of backupCode) expect(code).toMatch(/^[A-Z0-9]{6}$/);
    expect(recoveryCode).toMatch(/^[A-Z0-9]{24}$/);
    expect((await call('user/checkUserHave2FAByUUID', { cookie })).json).toMatchObject({ have2FA: true, type: 'totp' });
    expect((await call(`user/checkUserHave2FAByEmail?email=${email}`)).json).toMatchObject({
      have2FA: true,
      type: 'totp',
    });
    expect((await call('user/self', { method: 'POST', cookie })).json.result.authenticatorType).toBe('totp');
    // Setting up again is refused while one exists; the secret is never sent again.
    const again = await call('user/createTotpAuthenticator', { method: 'POST', cookie });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ isExists: true, existsAuthenticatorType: 'totp', result: null });
    const stored = await server.db
      .selectFrom('totp_authenticators')
      .select(['backup_code_hashes', 'recovery_code_hash'])
      .executeTakeFirstOrThrow();
    expect(stored.backup_code_hashes.join()).not.toContain(backupCode[0]);
    expect(stored.recovery_code_hash).not.toBe(recoveryCode);
  });

  it('asks for the code after the password, accepts ±1 step of clock drift, and never the same step twice', async () => {
    const { email, otpAuth } = await enrolled('TotpLogin');
    const first = await call('user/login', { body: { email, password: PASSWORD } });
    expect(first.status).toBe(401);
    expect(first.json).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED', authenticatorType: 'totp' });
    expect(
      (await call('user/login', { body: { email, password: 'wrong wrong', clientOtp: codeAt(otpAuth, 1) } })).json.code,
    ).toBe('INVALID_CREDENTIALS');
    expect(
      (await call('user/login', { body: { email, password: PASSWORD, clientOtp: codeAt(otpAuth, 3) } })).json.code,
    ).toBe('SECOND_FACTOR_INVALID');
    const drifted = await call('user/login', { body: { email, password: PASSWORD, clientOtp: codeAt(otpAuth, 1) } });
    expect(drifted.status).toBe(200);
    // The same step (and any earlier one) is spent.
    expect(
      (await call('user/login', { body: { email, password: PASSWORD, clientOtp: codeAt(otpAuth, 1) } })).json.code,
    ).toBe('SECOND_FACTOR_INVALID');
    expect(
      (await call('user/login', { body: { email, password: PASSWORD, clientOtp: codeAt(otpAuth, 0) } })).json.code,
    ).toBe('SECOND_FACTOR_INVALID');
  });

  it('takes each backup code once, and the recovery code removes the authenticator', async () => {
    const { email, backupCode, recoveryCode } = await enrolled('TotpBackup');
    expect(
      (await call('user/login', { body: { email, password: PASSWORD, clientOtp: backupCode[2].toLowerCase() } }))
        .status,
    ).toBe(200);
    expect(
      (await call('user/login', { body: { email, password: PASSWORD, clientOtp: backupCode[2] } })).json.code,
    ).toBe('SECOND_FACTOR_INVALID');
    expect((await call('user/login', { body: { email, password: PASSWORD, clientOtp: recoveryCode } })).status).toBe(
      200,
    );
    expect((await call('user/login', { body: { email, password: PASSWORD } })).status).toBe(200);
  });

  it('locks after five wrong codes for an hour', async () => {
    const { email, otpAuth } = await enrolled('TotpLock');
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await call('user/login', { body: { email, password: PASSWORD, clientOtp: '000000' } })).json.code);
    expect(statuses).toEqual([
      'SECOND_FACTOR_INVALID',
      'SECOND_FACTOR_INVALID',
      'SECOND_FACTOR_INVALID',
      'SECOND_FACTOR_INVALID',
      'SECOND_FACTOR_LOCKED',
    ]);
    const locked = await call('user/login', { body: { email, password: PASSWORD, clientOtp: codeAt(otpAuth) } });
    expect([locked.status, locked.json.code]).toEqual([429, 'SECOND_FACTOR_LOCKED']);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  it('lets the owner of an account guessed at from many addresses in with the code, and tells the guessers nothing', async () => {
    const { email, otpAuth } = await enrolled('TotpBesieged');
    await guessUntilUnderAttack(server, email, '100.64');
    const seen = (answer: { status: number; json: Record<string, any> }) => ({
      status: answer.status,
      ...answer.json,
      requestId: null,
    });
    const right = await call('user/login', { body: { email, password: PASSWORD } });
    expect([right.status, right.json.code, right.json.authenticatorType]).toEqual([
      401,
      'SECOND_FACTOR_REQUIRED',
      'totp',
    ]);
    expect(seen(await call('user/login', { body: { email, password: 'not the password' } }))).toEqual(seen(right));
    // A wrong password with a good code, or a wrong code with the right password: the same refusal.
    const wrongPassword = await call('user/login', {
      body: { email, password: 'not the password', clientOtp: codeAt(otpAuth, 1) },
    });
    expect([wrongPassword.status, wrongPassword.json.code]).toEqual([401, 'PASSWORD_OR_CODE_INVALID']);
    expect(
      seen(await call('user/login', { body: { email, password: PASSWORD, clientOtp: codeAt(otpAuth, 3) } })),
    ).toEqual(seen(wrongPassword));
    // The owner, with both (the code the wrong password came with was not spent).
    expect(
      (await call('user/login', { body: { email, password: PASSWORD, clientOtp: codeAt(otpAuth, 1) } })).status,
    ).toBe(200);
  });

  it('turns off only with the password and a code', async () => {
    const { cookie, otpAuth, email } = await enrolled('TotpOff');
    const del = (body: unknown) =>
      call('user/deleteTotpAuthenticatorByTotpVerificationCodeController', { method: 'DELETE', body, cookie });
    expect((await del({ clientOtp: codeAt(otpAuth, 1), password: 'not mine at all' })).json.code).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await del({ clientOtp: codeAt(otpAuth, 1), password: PASSWORD })).status).toBe(200);
    expect((await call('user/checkUserHave2FAByUUID', { cookie })).json.have2FA).toBe(false);
    expect((await call('user/login', { body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await call('user/createTotpAuthenticator', { method: 'POST' })).status).toBe(401);
  });
});

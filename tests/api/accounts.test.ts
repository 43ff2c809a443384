import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { startServerWithMail, type SmtpPeer } from './smtp-peer.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createInvitationCode } from '../../server/services/invitations.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { guessUntilUnderAttack } from './login-attack.ts';

const PASSWORD = 'stars over the river';
const SECRET_PATTERNS = [/password_hash/, /\$argon2/, /code_hash/, /token_hash/];

describe.each(BACKENDS)('accounts on %s', (backend) => {
  let server: TestServer;
  let smtp: SmtpPeer;
  const bodies: string[] = [];

  /** Calls the API like the browser does, keeping every body to check nothing secret leaves. */
  async function call(
    path: string,
    init: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
  ) {
    const response = await server.api(path, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: { 'Content-Type': 'application/json', ...(init.cookie ? { Cookie: init.cookie } : {}), ...init.headers },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await response.text();
    bodies.push(text);
    return { status: response.status, headers: response.headers, json: JSON.parse(text) as Record<string, any> };
  }
  const cookieOf = (headers: Headers) =>
    headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

  async function memberWithSession(username: string, roles: string[] = ['user']) {
    const repositories = createRepositories(server.db);
    const uid = await insertAccount(repositories, {
      email: `${username}@example.com`,
      password: PASSWORD,
      username,
      roles,
    });
    const token = await createSession(repositories, uid);
    return { uid, token, cookie: `uid=${uid}; token=${token}` };
  }

  let stop: () => Promise<void>;
  beforeAll(async () => {
    // Behind a trusted proxy, so tests can come from several client addresses.
    ({ server, smtp, close: stop } = await startServerWithMail(backend, { TRUST_PROXY: '1' }));
  });
  afterAll(() => stop?.());

  it('registers with a mailed code and an invitation code, then logs in', async () => {
    const { invitationCode } = await createInvitationCode(createRepositories(server.db), null);
    expect(invitationCode).toMatch(/^KIRA-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect((await call('user/checkInvitationCode', { body: { invitationCode } })).json.isAvailableInvitationCode).toBe(
      true,
    );

    const sent = await call('user/requestSendVerificationCode', {
      body: { email: 'Hoshi@Example.com', clientLanguage: 'en' },
    });
    expect(sent.status).toBe(200);
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(['Hoshi@example.com']);
    expect(mail.subject).toMatch(/^\d{6} is your Kiraboshi verification code$/);
    expect(mail.text).toContain('valid for 30 minutes');

    const registered = await call('user/registering', {
      body: {
        email: 'Hoshi@Example.com',
        password: PASSWORD,
        verificationCode: smtp.codeFor('Hoshi@example.com'),
        username: 'Hoshino',
        userNickname: '星野',
        invitationCode,
      },
    });
    expect(registered.status).toBe(200);
    expect(registered.json).toEqual({ success: true, uid: expect.any(Number) });
    const setCookies = registered.headers.getSetCookie();
    expect(setCookies).toHaveLength(2);
    expect(setCookies[0]).toMatch(/^uid=\d+; Path=\/; SameSite=Lax; Max-Age=2592000$/);
    expect(setCookies[1]).toMatch(/^token=[\w-]{43}; HttpOnly; Path=\/; SameSite=Lax; Max-Age=2592000$/);
    const cookie = cookieOf(registered.headers);

    expect((await call('user/check', { cookie })).json).toEqual({ success: true, userTokenOk: true });
    const self = await call('user/self', { method: 'POST', cookie });
    expect(self.json.result).toMatchObject({
      uid: registered.json.uid,
      email: 'Hoshi@example.com',
      roles: ['user'],
      username: 'Hoshino',
      userNickname: '星野',
      authenticatorType: 'none',
    });
    const info = await call(`user/info?uid=${registered.json.uid}`);
    expect(info.json.result).toMatchObject({ username: 'Hoshino', isSelf: false });
    expect(JSON.stringify(info.json)).not.toContain('Hoshi@');

    // The invitation code was single use.
    expect((await call('user/checkInvitationCode', { body: { invitationCode } })).json.isAvailableInvitationCode).toBe(
      false,
    );
    const login = await call('user/login', { body: { email: 'hoshi@example.com', password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.json).toEqual({ success: true, uid: registered.json.uid });
  });

  it('mails the code in the requested language', async () => {
    await call('user/requestSendVerificationCode', { body: { email: 'sakura@example.jp', clientLanguage: 'ja' } });
    const mail = smtp.mails.at(-1)!;
    expect(mail.subject).toMatch(/^きらぼしの認証コード：\d{6}$/);
    expect(mail.text).toContain('アカウント作成のための認証コード');
  });

  it('refuses a second code within 55 s, and past the daily cap', async () => {
    await call('user/requestSendVerificationCode', { body: { email: 'cool@example.com', clientLanguage: 'en' } });
    const again = await call('user/requestSendVerificationCode', { body: { email: 'cool@example.com' } });
    expect(again.status).toBe(429);
    expect(again.json).toMatchObject({ code: 'COOLING_DOWN', isCoolingDown: true });
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
    const old = new Date(Date.now() - 60 * 60_000);
    await server.db
      .insertInto('verification_codes')
      .values(
        Array.from({ length: 5 }, () => ({
          email: 'capped@example.com',
          purpose: 'registration' as const,
          code_hash: 'x',
          expires_at: old,
          created_at: old,
        })) as never,
      )
      .execute();
    const capped = await call('user/requestSendVerificationCode', { body: { email: 'capped@example.com' } });
    expect(capped.status).toBe(429);
    expect(capped.json.code).toBe('DAILY_LIMIT');
  });

  it('answers each registration failure with its status and code, spending nothing', async () => {
    const { invitationCode } = await createInvitationCode(createRepositories(server.db), null);
    await call('user/requestSendVerificationCode', { body: { email: 'fail@example.com', clientLanguage: 'en' } });
    const code = smtp.codeFor('fail@example.com');
    const base = {
      email: 'fail@example.com',
      password: PASSWORD,
      verificationCode: code,
      username: 'FailCase',
      invitationCode,
    };

    const weak = await call('user/registering', { body: { ...base, password: 'password123' } });
    expect([weak.status, weak.json.code]).toEqual([400, 'WEAK_PASSWORD']);
    const short = await call('user/registering', { body: { ...base, password: 'short' } });
    expect(short.json.code).toBe('WEAK_PASSWORD');
    const badName = await call('user/registering', { body: { ...base, username: 'no<script>' } });
    expect([badName.status, badName.json.code, badName.json.issues[0].path]).toEqual([
      400,
      'VALIDATION_FAILED',
      'username',
    ]);
    const badInvite = await call('user/registering', { body: { ...base, invitationCode: 'KIRA-0000-0000' } });
    expect([badInvite.status, badInvite.json.code]).toEqual([400, 'INVITATION_CODE_INVALID']);
    const malformed = await call('user/registering', { body: { ...base, verificationCode: '12ab' } });
    expect(malformed.json.code).toBe('VALIDATION_FAILED');
    await insertAccount(createRepositories(server.db), {
      email: 'other@example.com',
      password: PASSWORD,
      username: 'TakenName',
    });
    const taken = await call('user/registering', { body: { ...base, username: 'takenname' } });
    expect([taken.status, taken.json.code]).toEqual([409, 'USERNAME_TAKEN']);
    const emailTaken = await call('user/requestSendVerificationCode', { body: { email: 'OTHER@example.com' } });
    expect([emailTaken.status, emailTaken.json.code]).toEqual([409, 'EMAIL_TAKEN']);

    // None of the failures spent the code or the invitation.
    const ok = await call('user/registering', { body: base });
    expect(ok.status).toBe(200);
  });

  it('spends a code after five wrong guesses', async () => {
    const { invitationCode } = await createInvitationCode(createRepositories(server.db), null);
    await call('user/requestSendVerificationCode', { body: { email: 'guess@example.com', clientLanguage: 'en' } });
    const code = smtp.codeFor('guess@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    const base = { email: 'guess@example.com', password: PASSWORD, username: 'Guesser', invitationCode };
    const from = (i: number) => ({ 'X-Forwarded-For': `192.0.2.${i}` });
    for (let i = 0; i < 5; i++) {
      expect(
        (await call('user/registering', { body: { ...base, verificationCode: wrong }, headers: from(i) })).json.code,
      ).toBe('VERIFICATION_CODE_INVALID');
    }
    expect(
      (await call('user/registering', { body: { ...base, verificationCode: code }, headers: from(9) })).json.code,
    ).toBe('VERIFICATION_CODE_INVALID');
  });

  it('limits registrations per client address', async () => {
    const from = { 'X-Forwarded-For': '198.51.100.7' };
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await call('user/registering', { body: {}, headers: from })).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('never tells whether the e-mail or the password was wrong, and never gives a hint', async () => {
    await insertAccount(createRepositories(server.db), {
      email: 'login@example.com',
      password: PASSWORD,
      username: 'LoginUser',
    });
    const wrongPassword = await call('user/login', {
      body: { email: 'login@example.com', password: 'not it at all' },
      headers: { 'Accept-Language': 'en' },
    });
    const noAccount = await call('user/login', {
      body: { email: 'nobody@example.com', password: 'not it at all' },
      headers: { 'Accept-Language': 'en' },
    });
    expect(wrongPassword.status).toBe(401);
    expect({ ...wrongPassword.json, requestId: 0 }).toEqual({ ...noAccount.json, requestId: 0 });
    expect(wrongPassword.json.message).toBe('The e-mail address or password is incorrect.');
    expect(Object.keys(wrongPassword.json).sort()).toEqual(['code', 'message', 'requestId', 'success']);
  });

  it('rotates the session at login and revokes it at logout', async () => {
    await insertAccount(createRepositories(server.db), {
      email: 'rotate@example.com',
      password: PASSWORD,
      username: 'Rotator',
    });
    const first = cookieOf(
      (await call('user/login', { body: { email: 'rotate@example.com', password: PASSWORD } })).headers,
    );
    const second = cookieOf(
      (await call('user/login', { body: { email: 'rotate@example.com', password: PASSWORD }, cookie: first })).headers,
    );
    expect(second).not.toBe(first);
    expect((await call('user/check', { cookie: first })).json.userTokenOk).toBe(false);
    expect((await call('user/check', { cookie: second })).json.userTokenOk).toBe(true);
    expect((await call('user/logout', { cookie: second })).status).toBe(405); // a GET cannot log out
    expect((await call('user/check', { cookie: second })).json.userTokenOk).toBe(true);
    const logout = await call('user/logout', { method: 'POST', cookie: second });
    expect(logout.headers.getSetCookie().every((c) => c.includes('Max-Age=0'))).toBe(true);
    expect((await call('user/check', { cookie: second })).json.userTokenOk).toBe(false);
    expect((await call('user/self', { method: 'POST', cookie: second })).status).toBe(401);
  });

  it('leaves the session alone when a login fails, whatever the reason', async () => {
    const me = await memberWithSession('Steady');
    await insertAccount(createRepositories(server.db), {
      email: 'other-steady@example.com',
      password: PASSWORD,
      username: 'OtherSteady',
    });
    const from = { 'X-Forwarded-For': '10.9.0.1' };
    const failures = [
      { email: 'steady@example.com', password: 'not my password' }, // own account, wrong password
      { email: 'other-steady@example.com', password: 'not theirs either' }, // someone else's
      { email: 'nobody-steady@example.com', password: 'no such account' },
    ];
    for (const body of failures) {
      const answer = await call('user/login', { body, cookie: me.cookie, headers: from });
      expect([answer.status, answer.json.code]).toEqual([401, 'INVALID_CREDENTIALS']);
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect((await call('user/check', { cookie: me.cookie })).json.userTokenOk).toBe(true);
    }
    // A malformed login (refused by validation) does not end it either.
    expect(
      (await call('user/login', { body: { email: 'steady@example.com' }, cookie: me.cookie, headers: from })).status,
    ).toBe(400);
    expect((await call('user/check', { cookie: me.cookie })).json.userTokenOk).toBe(true);
    // A successful one replaces it.
    const next = await call('user/login', {
      body: { email: 'steady@example.com', password: PASSWORD },
      cookie: me.cookie,
      headers: from,
    });
    expect(next.status).toBe(200);
    expect((await call('user/check', { cookie: me.cookie })).json.userTokenOk).toBe(false);
    expect((await call('user/check', { cookie: cookieOf(next.headers) })).json.userTokenOk).toBe(true);
  });

  it('limits an address guessing at an account, and never keeps the owner out from another address', async () => {
    await insertAccount(createRepositories(server.db), {
      email: 'limit@example.com',
      password: PASSWORD,
      username: 'Limited',
    });
    const attacker = { 'X-Forwarded-For': '10.0.0.66' };
    const tries = [];
    for (let i = 0; i < 11; i++)
      tries.push(
        await call('user/login', {
          body: { email: 'limit@example.com', password: `wrong password ${i}` },
          headers: attacker,
        }),
      );
    expect(tries.slice(0, 10).map((t) => t.json.code)).toEqual(Array(10).fill('INVALID_CREDENTIALS'));
    expect([tries[10].status, tries[10].json.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(tries[10].headers.get('retry-after'))).toBeGreaterThan(0);
    // That address waits for the window even with the right password...
    expect(
      (await call('user/login', { body: { email: 'limit@example.com', password: PASSWORD }, headers: attacker }))
        .status,
    ).toBe(429);
    // ...and the owner, elsewhere, logs in.
    const owner = await call('user/login', {
      body: { email: 'limit@example.com', password: PASSWORD },
      headers: { 'X-Forwarded-For': '10.0.1.1' },
    });
    expect([owner.status, owner.json.success]).toEqual([200, true]);
  });

  it('limits the logins from one address whatever accounts it tries', async () => {
    const from = { 'X-Forwarded-For': '10.0.2.2' };
    const codes = [];
    for (let i = 0; i < 31; i++)
      codes.push(
        (
          await call('user/login', {
            body: { email: `sprayed-${i}@example.com`, password: 'one common guess' },
            headers: from,
          })
        ).json.code,
      );
    expect(codes.slice(0, 30).every((code) => code === 'INVALID_CREDENTIALS')).toBe(true);
    expect(codes[30]).toBe('RATE_LIMITED');
  });

  it('lets the owner of an account guessed at from many addresses in with a mailed code, and tells the guessers nothing', async () => {
    const email = 'besieged@example.com';
    await insertAccount(createRepositories(server.db), { email, password: PASSWORD, username: 'Besieged' });
    await guessUntilUnderAttack(server, email, '10.1');
    let address = 0;
    const login = (body: Record<string, string>) =>
      call('user/login', {
        body: { email, ...body },
        headers: { 'X-Forwarded-For': `10.2.0.${++address}`, 'Accept-Language': 'en' },
      });
    const seen = (answer: { status: number; json: Record<string, any> }) => ({
      status: answer.status,
      ...answer.json,
      requestId: null,
    });

    // The password alone says nothing now, right or wrong: a second factor is asked for first.
    const right = await login({ password: PASSWORD });
    expect([right.status, right.json.code, right.json.authenticatorType]).toEqual([
      401,
      'SECOND_FACTOR_REQUIRED',
      'email',
    ]);
    expect(seen(await login({ password: 'yet another guess' }))).toEqual(seen(right));

    // Asking for the login code answers alike too; only the right password has it mailed.
    const mailed = smtp.mails.length;
    const ask = (password: string) =>
      call('user/sendUserEmailAuthenticator', {
        body: { email, password, clientLanguage: 'en' },
        headers: { 'X-Forwarded-For': `10.2.0.${++address}` },
      });
    expect((await ask('a guess for the code')).json).toEqual({ success: true, isCoolingDown: false });
    expect(smtp.mails.length).toBe(mailed);
    expect((await ask(PASSWORD)).json).toEqual({ success: true, isCoolingDown: false });
    expect(smtp.mails.length).toBe(mailed + 1);
    expect(smtp.mails.at(-1)!.text).toContain('logging in');
    // Asked again at once, it does not tell by a cool-down that the password was right.
    expect((await ask(PASSWORD)).json).toEqual({ success: true, isCoolingDown: false });
    const code = smtp.codeFor(email);

    // A wrong password with the code, or the right one with a wrong code: the same refusal.
    const wrongPassword = await login({ password: 'guessing with a code', verificationCode: code });
    const wrongCode = await login({ password: PASSWORD, verificationCode: code === '000000' ? '111111' : '000000' });
    expect([wrongPassword.status, wrongPassword.json.code]).toEqual([401, 'PASSWORD_OR_CODE_INVALID']);
    expect(wrongPassword.json.message).toBe('The password or the code is incorrect.');
    expect(seen(wrongCode)).toEqual(seen(wrongPassword));
    // The owner, with both.
    const owner = await login({ password: PASSWORD, verificationCode: code });
    expect([owner.status, owner.json.success]).toEqual([200, true]);
    expect((await call('user/check', { cookie: cookieOf(owner.headers) })).json.userTokenOk).toBe(true);
  });

  it('checks e-mail addresses and usernames', async () => {
    await insertAccount(createRepositories(server.db), {
      email: 'exists@example.com',
      password: PASSWORD,
      username: 'ExistingOne',
    });
    expect((await call('user/existsCheck?email=EXISTS@example.com')).json).toEqual({ success: true, exists: true });
    expect((await call('user/existsCheck?email=free@example.com')).json.exists).toBe(false);
    expect((await call('user/checkUsername?username=existingone')).json.isAvailableUsername).toBe(false);
    expect(
      (await call(`user/checkUsername?username=${encodeURIComponent('新しい名前')}`)).json.isAvailableUsername,
    ).toBe(true);
    expect((await call('user/checkUsername?username=a%20%20b')).json.isAvailableUsername).toBe(false);
  });

  it('enforces roles on every protected call', async () => {
    const member = await memberWithSession('RoleMember');
    const blocked = await memberWithSession('RoleBlocked', ['blocked']);
    const admin = await memberWithSession('RoleAdmin', ['administrator']);
    const root = await memberWithSession('RoleRoot', ['root']);
    const who = {
      anonymous: '',
      user: member.cookie,
      blocked: blocked.cookie,
      administrator: admin.cookie,
      root: root.cookie,
    };
    const expectations: Array<[string, { method?: string; body?: unknown }, Record<keyof typeof who, number>]> = [
      ['user/self', { method: 'POST' }, { anonymous: 401, user: 200, blocked: 200, administrator: 200, root: 200 }],
      ['user/myInvitationCode', {}, { anonymous: 401, user: 200, blocked: 200, administrator: 200, root: 200 }],
      [
        'user/createInvitationCode',
        { method: 'POST' },
        { anonymous: 401, user: 403, blocked: 403, administrator: 200, root: 200 },
      ],
      [
        'user/blocked/info?page=1&pageSize=10',
        {},
        { anonymous: 401, user: 403, blocked: 403, administrator: 200, root: 200 },
      ],
      [
        'rbac/adminUpdateUserRole',
        { body: { uid: member.uid, newRoles: ['developer'] } },
        { anonymous: 401, user: 403, blocked: 403, administrator: 200, root: 200 },
      ],
    ];
    for (const [path, init, statuses] of expectations) {
      for (const [role, cookie] of Object.entries(who)) {
        const response = await call(path, { ...init, cookie: cookie || undefined });
        expect(response.status, `${role} -> ${path}`).toBe(statuses[role as keyof typeof who]);
      }
    }
    // A member's account is too new (403 ACCOUNT_TOO_NEW); a blocked one cannot post at all.
    expect((await call('user/createInvitationCode', { method: 'POST', cookie: member.cookie })).json.code).toBe(
      'ACCOUNT_TOO_NEW',
    );
    expect((await call('user/createInvitationCode', { method: 'POST', cookie: blocked.cookie })).json.code).toBe(
      'USER_BLOCKED',
    );
  });

  it('lets a week-old member create one invitation code a week', async () => {
    const member = await memberWithSession('WeekOld');
    await server.db
      .updateTable('users')
      .set({ created_at: new Date(Date.now() - 8 * 86_400_000) } as never)
      .where('uid', '=', member.uid)
      .execute();
    const first = await call('user/createInvitationCode', { method: 'POST', cookie: member.cookie });
    expect(first.status).toBe(200);
    expect(first.json.invitationCodeResult).toMatchObject({ creatorUid: member.uid, isPending: true, assignee: null });
    const second = await call('user/createInvitationCode', { method: 'POST', cookie: member.cookie });
    expect([second.status, second.json.code, second.json.isCoolingDown]).toEqual([429, 'COOLING_DOWN', true]);
    const mine = await call('user/myInvitationCode', { cookie: member.cookie });
    expect(mine.json.invitationCodeResult.map((r: { invitationCode: string }) => r.invitationCode)).toEqual([
      first.json.invitationCodeResult.invitationCode,
    ]);
  });

  it('applies the role rules: administrators manage members, only root manages staff, one root always remains', async () => {
    const member = await memberWithSession('RulesMember');
    const admin = await memberWithSession('RulesAdmin', ['administrator']);
    const root = await memberWithSession('RulesRoot', ['root']);
    const set = (cookie: string, uid: number, newRoles: string[]) =>
      call('rbac/adminUpdateUserRole', { body: { uid, newRoles }, cookie });
    expect((await set(admin.cookie, member.uid, ['blocked', 'user'])).json.roles).toEqual(['blocked']);
    expect(
      (await call('user/blocked/info', { cookie: admin.cookie })).json.result.map((r: { uid: number }) => r.uid),
    ).toContain(member.uid);
    expect((await set(admin.cookie, member.uid, ['administrator'])).status).toBe(403);
    expect((await set(admin.cookie, root.uid, ['user'])).status).toBe(403);
    expect((await set(root.cookie, member.uid, ['administrator'])).json.roles).toEqual(['administrator']);
    // Other roots may exist from earlier tests: demote them first, so this one is the last.
    const roots = await server.db.selectFrom('users').select(['uid', 'roles']).execute();
    for (const r of roots) if (r.roles.includes('root') && r.uid !== root.uid) await set(root.cookie, r.uid, ['user']);
    const last = await set(root.cookie, root.uid, ['administrator']);
    expect([last.status, last.json.code]).toEqual([409, 'LAST_ROOT']);
    expect((await set(root.cookie, 99_999_999, ['user'])).status).toBe(404);
  });

  it('never sends a secret in any response', () => {
    expect(bodies.length).toBeGreaterThan(50);
    for (const body of bodies) for (const pattern of SECRET_PATTERNS) expect(body).not.toMatch(pattern);
  });
});

describe('mail without an SMTP server', () => {
  it('writes each mail as an .eml file in the outbox', async () => {
    const outbox = await mkdtemp(join(tmpdir(), 'kiraboshi-outbox-test-'));
    const server = await startTestServer('pglite', { env: { OUTBOX_DIR: outbox } });
    try {
      const response = await server.api('user/requestSendVerificationCode', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'local@example.com', clientLanguage: 'zhs' }),
      });
      expect(response.status).toBe(200);
      const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const eml = await readFile(join(outbox, files[0]), 'utf8');
      expect(eml).toMatch(/^To: local@example\.com$/m);
      expect(eml).toMatch(/^Subject: =\?UTF-8\?/m);
    } finally {
      await server.close();
    }
  });
});

describe('every protected call against every role', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(() => server?.close());

  type Who = 'anonymous' | 'user' | 'blocked' | 'administrator' | 'root';
  // 'allowed': passes the permission check (the call may still refuse its input or a wrong code).
  const OPEN = 'allowed';
  const PERMISSION_CODES = ['UNAUTHORIZED', 'FORBIDDEN', 'USER_BLOCKED', 'ACCOUNT_TOO_NEW'];
  type Expect = 'UNAUTHORIZED' | 'FORBIDDEN' | 'USER_BLOCKED' | 'ACCOUNT_TOO_NEW' | typeof OPEN;
  const MEMBER: Record<Who, Expect> = {
    anonymous: 'UNAUTHORIZED',
    user: OPEN,
    blocked: 'USER_BLOCKED',
    administrator: OPEN,
    root: OPEN,
  };
  const LOGGED_IN: Record<Who, Expect> = {
    anonymous: 'UNAUTHORIZED',
    user: OPEN,
    blocked: OPEN,
    administrator: OPEN,
    root: OPEN,
  };
  const STAFF: Record<Who, Expect> = {
    anonymous: 'UNAUTHORIZED',
    user: 'FORBIDDEN',
    blocked: 'FORBIDDEN',
    administrator: OPEN,
    root: OPEN,
  };
  const CALLS: Array<[string, string, unknown, Record<Who, Expect>]> = [
    ['POST', 'user/self', undefined, LOGGED_IN],
    ['POST', 'user/settings', {}, LOGGED_IN],
    ['POST', 'user/settings/update', { themeType: 'dark' }, LOGGED_IN],
    ['POST', 'user/update/info', { signature: 'hi' }, MEMBER],
    ['GET', 'user/avatar/preUpload', undefined, MEMBER],
    ['POST', 'user/createInvitationCode', undefined, { ...MEMBER, user: 'ACCOUNT_TOO_NEW' }], // a new account is too young
    ['GET', 'user/myInvitationCode', undefined, LOGGED_IN],
    ['GET', 'user/checkUserHave2FAByUUID', undefined, LOGGED_IN],
    ['POST', 'user/createTotpAuthenticator', undefined, LOGGED_IN],
    ['POST', 'user/confirmUserTotpAuthenticator', { clientOtp: '000000' }, LOGGED_IN],
    [
      'DELETE',
      'user/deleteTotpAuthenticatorByTotpVerificationCodeController',
      { clientOtp: '000000', password: 'x' },
      LOGGED_IN,
    ],
    ['POST', 'user/sendDeleteUserEmailAuthenticator', {}, LOGGED_IN],
    ['DELETE', 'user/deleteUserEmailAuthenticator', { password: 'x', verificationCode: '000000' }, LOGGED_IN],
    ['POST', 'user/update/password', {}, LOGGED_IN],
    ['POST', 'user/update/email', {}, LOGGED_IN],
    ['POST', 'user/requestSendChangeEmailVerificationCode', { newEmail: 'not-an-address' }, LOGGED_IN],
    ['GET', 'user/adminGetUserInfo', undefined, STAFF],
    ['POST', 'user/approveUserInfo', { uid: 987_654 }, STAFF],
    ['POST', 'user/adminClearUserInfo', { uid: 987_654 }, STAFF],
    ['GET', 'user/blocked/info', undefined, STAFF],
    ['POST', 'rbac/adminUpdateUserRole', { uid: 987_654, newRoles: ['user'] }, STAFF],
  ];

  it('refuses anonymous callers and the roles that may not, and lets the others through', async () => {
    const cookies: Record<Who, string> = { anonymous: '', user: '', blocked: '', administrator: '', root: '' };
    for (const who of ['user', 'blocked', 'administrator', 'root'] as const) {
      const repositories = createRepositories(server.db);
      const uid = await insertAccount(repositories, {
        email: `matrix-${who}@example.com`,
        password: 'matrix password 1',
        username: `Matrix${who}`,
        roles: [who],
      });
      cookies[who] = `uid=${uid}; token=${await createSession(repositories, uid)}`;
    }
    const failures: string[] = [];
    for (const [method, path, body, expected] of CALLS) {
      for (const who of Object.keys(cookies) as Who[]) {
        const response = await server.api(path, {
          method,
          headers: { 'Content-Type': 'application/json', ...(cookies[who] ? { Cookie: cookies[who] } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const { code } = (await response.json()) as { code?: string };
        const ok = expected[who] === OPEN ? !PERMISSION_CODES.includes(code ?? '') : code === expected[who];
        const status = { UNAUTHORIZED: 401, FORBIDDEN: 403, USER_BLOCKED: 403, ACCOUNT_TOO_NEW: 403 }[code ?? ''];
        if (!ok || (status && response.status !== status))
          failures.push(`${who} ${method} ${path}: ${response.status} ${code}, expected ${expected[who]}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

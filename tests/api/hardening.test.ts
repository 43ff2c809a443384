/**
 * Production hardening. Behind a TLS-terminating proxy (nginx, Caddy, a CDN) the process sees
 * plain http from the proxy, with the visitor's scheme, host and address in X-Forwarded-*
 * headers: logging in must work, cookies must be Secure, foreign origins still refused, and the
 * visitor's address must be the one the proxy saw, not one the visitor wrote. Bodies are bounded
 * while they stream in; requests Node refuses itself still get the API's error shape.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { clientAddress, publicOrigin, readProxyHops, readPublicSiteUrl } from '../../server/http/public-origin.ts';
import { addressNetwork } from '../../server/services/videos.ts';
import { answerClientErrors } from '../../server/http/failures.ts';

const PASSWORD = 'proxy password 1';
const BEHIND_TLS = { Host: 'kira.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.7' };

/**
 * A request as the proxy forwards it: fetch() would not send our Host header (the proxy passes the
 * visitor's, as nginx's `proxy_set_header Host $host` does), so this goes through node:http.
 */
function viaProxy(
  server: TestServer,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; json: any }>((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(
      `${server.baseUrl}/api/${path}`,
      {
        method: init.method ?? 'GET',
        headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk) => (text += chunk))
          .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const login = (server: TestServer, headers: Record<string, string>) =>
  viaProxy(server, 'user/login', {
    method: 'POST',
    headers,
    body: { email: 'proxied@example.com', password: PASSWORD },
  });
const cookieOf = (answer: { headers: IncomingHttpHeaders }) =>
  (answer.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');

describe.each(BACKENDS)('behind a TLS proxy on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { TRUST_PROXY: '1' } });
    await insertAccount(createRepositories(server.db), {
      email: 'proxied@example.com',
      password: PASSWORD,
      username: 'Proxied',
    });
  });
  afterAll(() => server.close());

  it('logs in from the public https origin, with Secure cookies, and logs out by POST only', async () => {
    const answer = await login(server, { ...BEHIND_TLS, Origin: 'https://kira.example' });
    expect(answer.status).toBe(200);
    const cookies = answer.headers['set-cookie'] ?? [];
    expect(cookies.length).toBeGreaterThan(0);
    expect(cookies.every((c) => /;\s*Secure/i.test(c))).toBe(true);
    const cookie = cookieOf(answer);
    const sessionValid = async () =>
      (await viaProxy(server, 'user/check', { headers: { ...BEHIND_TLS, Cookie: cookie } })).json.userTokenOk;

    // An <img> or link on another site cannot log the member out: the GET is refused.
    const byGet = await viaProxy(server, 'user/logout', {
      headers: { ...BEHIND_TLS, Cookie: cookie, 'Accept-Language': 'en' },
    });
    expect(byGet.status).toBe(405);
    expect(byGet.headers.allow).toBe('POST');
    expect(byGet.json).toMatchObject({
      success: false,
      code: 'METHOD_NOT_ALLOWED',
      message: 'This API call does not take this request method.',
    });
    expect(await sessionValid()).toBe(true);

    // Nor can a form on another origin post it.
    const foreign = await viaProxy(server, 'user/logout', {
      method: 'POST',
      headers: { ...BEHIND_TLS, Cookie: cookie, Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json.code).toBe('ORIGIN_REFUSED');

    const byPost = await viaProxy(server, 'user/logout', {
      method: 'POST',
      headers: { ...BEHIND_TLS, Cookie: cookie, Origin: 'https://kira.example' },
    });
    expect(byPost.status).toBe(200);
    expect(await sessionValid()).toBe(false);
  });

  it('refuses a foreign origin, and the plain-http origin the proxy hides', async () => {
    for (const origin of ['https://evil.example', 'http://kira.example']) {
      const answer = await login(server, { ...BEHIND_TLS, Origin: origin });
      expect(answer.status).toBe(403);
      expect(answer.json.code).toBe('ORIGIN_REFUSED');
    }
  });

  it('takes the signed upload address from the public origin', async () => {
    const cookie = cookieOf(await login(server, { ...BEHIND_TLS, Origin: 'https://kira.example' }));
    const grant = (await viaProxy(server, 'user/avatar/preUpload', { headers: { ...BEHIND_TLS, Cookie: cookie } }))
      .json;
    expect(grant.result.signedUrl).toMatch(/^https:\/\/kira\.example\//);
  });

  it('never takes the host from X-Forwarded-Host, which a client can write', async () => {
    const spoof = { ...BEHIND_TLS, 'X-Forwarded-Host': 'evil.example' };
    const refused = await login(server, { ...spoof, Origin: 'https://evil.example' });
    expect([refused.status, refused.json.code]).toEqual([403, 'ORIGIN_REFUSED']);
    const answer = await login(server, { ...spoof, Origin: 'https://kira.example' });
    expect(answer.status).toBe(200);
    const grant = (await viaProxy(server, 'user/avatar/preUpload', { headers: { ...spoof, Cookie: cookieOf(answer) } }))
      .json;
    expect(grant.result.signedUrl).toMatch(/^https:\/\/kira\.example\//);
  });
});

describe.each(BACKENDS)('PUBLIC_SITE_URL on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { PUBLIC_SITE_URL: 'https://kira.example' } });
    await insertAccount(createRepositories(server.db), {
      email: 'proxied@example.com',
      password: PASSWORD,
      username: 'Proxied',
    });
  });
  afterAll(() => server.close());

  it('is the only origin trusted, whatever forwarded headers say', async () => {
    expect((await login(server, { Origin: 'https://kira.example' })).status).toBe(200);
    const spoofed = await login(server, {
      Origin: 'https://evil.example',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
    });
    expect(spoofed.status).toBe(403);
  });
});

describe('the public origin and the visitor’s address', () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name];
  it('trust forwarded headers only with proxies configured', () => {
    const forwarded = headers({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });
    expect(publicOrigin('http://127.0.0.1:3000/api/x', forwarded, { proxyHops: 0 })).toBe('http://127.0.0.1:3000');
    // The scheme from the proxy; the host from the Host header it passes on, never X-Forwarded-Host.
    expect(publicOrigin('http://kira.example/api/x', forwarded, { proxyHops: 1 })).toBe('https://kira.example');
    expect(
      publicOrigin('http://127.0.0.1:3000/api/x', headers({ 'x-forwarded-proto': 'gopher' }), { proxyHops: 1 }),
    ).toBe('http://127.0.0.1:3000');
    expect(
      publicOrigin('http://127.0.0.1:3000/api/x', forwarded, { proxyHops: 1, publicSiteUrl: 'https://site.example' }),
    ).toBe('https://site.example');
  });
  it('take the address the nearest trusted proxy saw, not one the visitor wrote', () => {
    // The visitor sent "X-Forwarded-For: 1.1.1.1"; the proxy appended the address it saw.
    expect(clientAddress('1.1.1.1, 203.0.113.7', '10.0.0.2', { proxyHops: 1 })).toBe('203.0.113.7');
    expect(clientAddress('1.1.1.1, 203.0.113.7, 10.0.0.9', '10.0.0.2', { proxyHops: 2 })).toBe('203.0.113.7');
    expect(clientAddress('1.1.1.1', '10.0.0.2', { proxyHops: 0 })).toBe('10.0.0.2');
    expect(clientAddress(undefined, '10.0.0.2', { proxyHops: 1 })).toBe('10.0.0.2');
  });
  it('refuse settings that are not what they should be', () => {
    expect(readPublicSiteUrl('https://kira.example/')).toBe('https://kira.example');
    expect(() => readPublicSiteUrl('https://kira.example/app')).toThrow(/PUBLIC_SITE_URL/);
    expect(() => readPublicSiteUrl('kira.example')).toThrow(/PUBLIC_SITE_URL/);
    expect(readProxyHops(undefined)).toBe(0);
    expect(readProxyHops('2')).toBe(2);
    expect(() => readProxyHops('yes')).toThrow(/TRUST_PROXY/);
  });
});

describe('a guest’s view is counted by address', () => {
  it('takes an IPv4 address whole and an IPv6 address by its /64 network', () => {
    expect(addressNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
  });
});

describe.each(BACKENDS)('requests refused before any handler on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.close());

  it('answer an address over 16 KB with the API’s error shape, not an empty reset', async () => {
    const answer = await server.api(`video/search?keyword=${'a'.repeat(20_000)}`);
    expect(answer.status).toBe(431);
    expect(await answer.json()).toMatchObject({ success: false, code: 'HEADERS_TOO_LARGE', message: '请求头太大了。' });
    // The server goes on answering.
    expect((await server.api('health')).status).toBe(200);
  });
});

describe('a request that does not arrive in time', () => {
  it('is answered 408 REQUEST_TIMEOUT in the API’s shape, not 400 as if it were bad input', async () => {
    // The production server's own handler of requests refused before any route (server/main.ts),
    // on a server whose limits are short enough to meet: headers started and never finished.
    const server = createServer({ headersTimeout: 200, requestTimeout: 300, connectionsCheckingInterval: 50 }, () => {
      throw new Error('no request should reach a handler');
    });
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('POST /api/video/like HTTP/1.1\r\nHost: x\r\n'));
        let text = '';
        socket.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        socket.on('end', () => resolve(text)).on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({
        success: false,
        code: 'REQUEST_TIMEOUT',
        message: '请求传送超时了，请重试。',
      });
    } finally {
      server.close();
    }
  });
});

/**
 * Sends a body of `total` bytes in 64 KB chunks, chunked or with its Content-Length announced,
 * stopping as soon as the server answers or cuts the connection.
 */
function flood(server: TestServer, path: string, total: number, chunked: boolean) {
  return new Promise<{ status: number; json: any; sent: number }>((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let answered = false;
    const req = request(
      `${server.baseUrl}/api/${path}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(chunked ? {} : { 'Content-Length': String(total) }) },
      },
      (res) => {
        answered = true;
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c) => (text += c))
          .on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text), sent }));
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < total && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && !req.destroyed) req.end();
    };
    req.write('{"email":"');
    pump();
  });
}

describe.each(BACKENDS)('bounded request bodies on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.close());

  it('refuses an oversized JSON body with 413 while it streams in, and memory stays bounded', async () => {
    const before = process.memoryUsage().rss;
    // Eight 200 MB bodies at once, half announced, half chunked with no length given.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => flood(server, 'user/login', 200 * 1024 * 1024, i % 2 === 0)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.json).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
      expect(answer.json.message).toBeTruthy();
    }
    // The server (in this process) kept at most what it read before cutting each body off.
    expect(process.memoryUsage().rss - before).toBeLessThan(96 * 1024 * 1024);
    expect((await server.api('health')).status).toBe(200);
  });

  it('takes a call’s largest valid body where the call needs more than the default', async () => {
    const answer = await server.api('video/comment/emit', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ videoId: 1, text: '弾'.repeat(20_000) }),
    });
    // Not refused for its size: the guest is asked to log in.
    expect(answer.status).toBe(401);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { request, HttpError, TimeoutError, buildUrl, setApiBase } from '../../src/lib/api/http.ts';
import * as api from '../../src/lib/api/index.ts';

/** A real HTTP peer: records what it receives and answers by path. */
let server: Server;
let base = '';
const received: Array<{ method: string; url: string; body: string; headers: IncomingMessage['headers'] }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, body, headers: req.headers });
      const path = req.url!.split('?')[0];
      if (path === '/api/ok')
        return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"success":true,"n":1}');
      if (path === '/api/hang') return; // never answers
      if (path === '/api/history/filter' && req.url!.includes('show=liked'))
        return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"success":true,"result":[]}');
      res
        .writeHead(500, { 'Content-Type': 'application/json' })
        .end('{"success":false,"code":"INTERNAL","message":"x"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/`;
  setApiBase(base);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  received.length = 0;
  vi.restoreAllMocks();
});

describe('HTTP helper', () => {
  it('builds URLs from the base, path and query', () => {
    expect(buildUrl('/api/', 'video/exists', { videoId: 5, skip: undefined })).toBe('/api/video/exists?videoId=5');
    expect(buildUrl('/api/', '/block/list', { type: 'tag', page: 1, ids: [1, 2] })).toBe(
      '/api/block/list?type=tag&page=1&ids=1&ids=2',
    );
  });

  it('sends credentials and JSON, and parses the answer', async () => {
    const spy = vi.fn(fetch);
    await expect(request('ok', { method: 'POST', body: { a: 1 }, fetchImpl: spy })).resolves.toEqual({
      success: true,
      n: 1,
    });
    expect(spy.mock.calls[0][1]).toMatchObject({ credentials: 'include', method: 'POST' });
    expect(received[0]).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(received[0].headers['content-type']).toBe('application/json');
  });

  it("raises 'HTTP error! Status: {status}' on a non-OK answer and logs it", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = await request('missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('HTTP error! Status: 500');
    expect((error as HttpError).body).toMatchObject({ code: 'INTERNAL' });
    expect(log).toHaveBeenCalledWith('HTTP error! Status: 500', `${base}missing`);
  });

  it('aborts a request that outlives its timeout', async () => {
    const started = Date.now();
    await expect(request('hang', { timeoutMs: 150 })).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('has the 30000 ms default timeout of the spec', () => {
    expect(api.REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(api.UPLOAD_TIMEOUT_MS).toBe(60_000);
  });
});

describe('typed calls', () => {
  it('fail without calling the server when an id or keyword is missing', async () => {
    expect(await api.searchVideos('  ')).toMatchObject({ success: false, message: '未提供关键字' });
    expect(await api.searchVideosByTag([])).toMatchObject({ success: false, message: '未提供 TAG ID' });
    expect(await api.getTags(undefined)).toMatchObject({ success: false, message: '未提供 TAG ID' });
    expect(received).toHaveLength(0);
  });

  it('return the fallback results of SPEC §8 when the server fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await api.searchVideos('猫')).toMatchObject({ message: '根据关键字搜索视频失败' });
    expect(await api.searchVideosByTag([1])).toMatchObject({ message: '根据 TAG ID 搜索视频失败' });
    expect(await api.getTags([1])).toMatchObject({ message: '根据 TAG ID 获取 TAG 失败' });
    expect(await api.getHistory('x')).toMatchObject({ success: false, message: '获取历史记录失败', result: [] });
    expect(await api.getMyInvitationCodes()).toMatchObject({ success: false, invitationCodeResult: [] });
    expect(received.map((r) => r.url)).toContain('/api/video/search?keyword=%E7%8C%AB');
  });

  it('pass a successful answer through', async () => {
    expect(await api.getHistory(' 猫 ', 'liked')).toEqual({ success: true, result: [] });
    expect(received[0].url).toBe('/api/history/filter?videoTitle=%E7%8C%AB&show=liked');
  });
});

import { describe, expect, it } from 'vitest';
import { createPageCache, sharedLifetime, type CapturedPage, type PageRequest } from '../../server/site/page-cache.ts';

const page = (
  body: string,
  cacheControl = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600',
  extra: Record<string, string> = {},
): CapturedPage => ({
  status: 200,
  headers: { 'cache-control': cacheControl, 'content-type': 'text/html', ...extra },
  body: Buffer.from(body),
});

const request = (
  target: string,
  headers: Record<string, string> = {},
  encoding: string | null = 'br',
): PageRequest => ({ target, encoding, crawler: false, header: (name) => headers[name] });

function setup(maxBytes = 1024 * 1024) {
  let clock = 0;
  const cache = createPageCache({ maxBytes, now: () => clock });
  /** One guest's request as the handler makes it: a hit's body, or renders `body` when asked to. */
  const visit = (req: PageRequest, body: string, cacheControl?: string, extra?: Record<string, string>) => {
    const answer = cache.answer(req);
    if (answer.kind === 'hit') return { kind: answer.stale ? 'stale' : 'hit', body: answer.page.body.toString() };
    if (answer.kind === 'wait') return { kind: 'wait', body: '' };
    answer.done(page(body, cacheControl, extra));
    return { kind: 'render', body };
  };
  return { cache, visit, tick: (ms: number) => (clock += ms) };
}

describe('the page cache for guests', () => {
  it('reads the shared lifetimes a page allows, and nothing from a private page', () => {
    expect(sharedLifetime('public, max-age=0, s-maxage=60, stale-while-revalidate=600')).toEqual({
      freshMs: 60_000,
      staleMs: 600_000,
    });
    expect(sharedLifetime('public, max-age=30')).toEqual({ freshMs: 30_000, staleMs: 0 });
    expect(sharedLifetime('private, no-store')).toBeNull();
    expect(sharedLifetime('public, s-maxage=60, no-cache')).toBeNull();
    expect(sharedLifetime('max-age=0, s-maxage=60')).toBeNull();
    expect(sharedLifetime(undefined)).toBeNull();
  });

  it('answers a second guest from the first render until s-maxage, then revalidates while others get the old copy', () => {
    const { cache, visit, tick } = setup();
    expect(visit(request('/en/'), 'v1').kind).toBe('render');
    expect(visit(request('/en/'), 'never')).toEqual({ kind: 'hit', body: 'v1' });
    tick(61_000);
    // Past s-maxage: this request renders; while it does, others are answered from the old copy.
    const revalidation = cache.answer(request('/en/'));
    expect(revalidation).toMatchObject({ kind: 'render', revalidating: true });
    expect(visit(request('/en/'), 'never')).toEqual({ kind: 'stale', body: 'v1' });
    if (revalidation.kind === 'render') revalidation.done(page('v2'));
    expect(visit(request('/en/'), 'never')).toEqual({ kind: 'hit', body: 'v2' });
    // Past the stale window too: a plain miss.
    tick(60_000 + 600_001);
    expect(visit(request('/en/'), 'v3').kind).toBe('render');
  });

  it('keys pages by path and query, encoding and crawler', () => {
    const { visit } = setup();
    visit(request('/en/search?keyword=a'), 'a');
    expect(visit(request('/en/search?keyword=b'), 'b').kind).toBe('render');
    expect(visit(request('/en/search?keyword=a', {}, 'gzip'), 'a-gzip').kind).toBe('render');
    expect(visit({ ...request('/en/search?keyword=a'), crawler: true }, 'a-bot').kind).toBe('render');
    expect(visit(request('/en/search?keyword=a'), 'never').body).toBe('a');
  });

  it('splits a page by the request headers its Vary names (not by the encoding or cookies)', () => {
    const { visit } = setup();
    const vary = { vary: 'Accept-Language, Accept-Encoding, Cookie' };
    expect(visit(request('/embed/kv1', { 'accept-language': 'ja' }), 'ja', undefined, vary).kind).toBe('render');
    expect(visit(request('/embed/kv1', { 'accept-language': 'ja' }), 'never').body).toBe('ja');
    expect(visit(request('/embed/kv1', { 'accept-language': 'de' }), 'de', undefined, vary).kind).toBe('render');
    expect(visit(request('/embed/kv1', { 'accept-language': 'de', cookie: 'x=1' }), 'never').body).toBe('de');
    expect(visit(request('/embed/kv1', { 'accept-language': 'ja' }), 'never').body).toBe('ja');
  });

  it('renders once for concurrent misses: the others wait and then read the result, or render when it varies for them', async () => {
    const { cache } = setup();
    const first = cache.answer(request('/en/video/kv1', { 'accept-language': 'ja' }));
    const second = cache.answer(request('/en/video/kv1', { 'accept-language': 'ja' }));
    const third = cache.answer(request('/en/video/kv1', { 'accept-language': 'de' }));
    expect(first.kind).toBe('render');
    expect(second.kind).toBe('wait');
    expect(third.kind).toBe('wait');
    if (first.kind === 'render') first.done(page('ja', undefined, { vary: 'Accept-Language' }));
    if (second.kind === 'wait') await second.done;
    expect(cache.answer(request('/en/video/kv1', { 'accept-language': 'ja' }))).toMatchObject({ kind: 'hit' });
    expect(cache.answer(request('/en/video/kv1', { 'accept-language': 'de' }))).toMatchObject({ kind: 'render' });
    expect(cache.stats).toMatchObject({ renders: 2, waits: 2, hits: 1 });
  });

  it('keeps nothing the page does not share, and lets waiters render for themselves', async () => {
    const { cache, visit } = setup();
    const first = cache.answer(request('/en/video/kv2?collection=4'));
    const waiting = cache.answer(request('/en/video/kv2?collection=4'));
    if (first.kind === 'render') first.done(page('mine', 'private, no-store'));
    if (waiting.kind === 'wait') await waiting.done;
    expect(cache.answer(request('/en/video/kv2?collection=4')).kind).toBe('render');
    expect(visit(request('/en/a'), 'not shared', 'public, max-age=0').kind).toBe('render');
    expect(visit(request('/en/a'), 'again').kind).toBe('render');
    const notFound = cache.answer(request('/en/user/9'));
    if (notFound.kind === 'render') notFound.done({ ...page('404'), status: 404 });
    expect(cache.answer(request('/en/user/9')).kind).toBe('render');
  });

  it('forgets everything on clear, and keeps no render that began before it', () => {
    const { cache, visit } = setup();
    visit(request('/en/'), 'old');
    const during = cache.answer(request('/en/video/kv3'));
    cache.clear();
    if (during.kind === 'render') during.done(page('rendered before the edit'));
    expect(visit(request('/en/video/kv3'), 'after').kind).toBe('render');
    expect(visit(request('/en/'), 'new')).toEqual({ kind: 'render', body: 'new' });
    expect(visit(request('/en/'), 'never').body).toBe('new');
  });

  it('stays within its memory bound, dropping the least recently used page first', () => {
    // Eight pages of 8 000 bytes (and 1 KiB each for their headers) fit in 80 000; a ninth does not.
    const body = 'x'.repeat(8_000);
    const { cache, visit } = setup(80_000);
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) visit(request(`/en/p${n}`), body);
    expect(cache.size.entries).toBe(8);
    expect(visit(request('/en/p1'), body).kind).toBe('hit');
    for (const n of [9, 10]) visit(request(`/en/p${n}`), body);
    expect(cache.size.bytes).toBeLessThanOrEqual(80_000);
    expect(cache.size.entries).toBe(8);
    // p1 was used after p2 and p3: they went first.
    expect(visit(request('/en/p1'), body).kind).toBe('hit');
    expect(visit(request('/en/p2'), body).kind).toBe('render');
    // A page larger than an eighth of the bound is never kept.
    visit(request('/en/huge'), 'y'.repeat(9_500));
    expect(visit(request('/en/huge'), 'y').kind).toBe('render');
  });
});

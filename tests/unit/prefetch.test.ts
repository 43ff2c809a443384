import { describe, expect, it } from 'vitest';
import { createPrefetchQueue, PREFETCH_PARALLEL, prefetchTarget } from '../../src/lib/shell/prefetch.ts';

/** A load per URL that the test settles by hand. */
function manualLoads() {
  const pending = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  const started: string[] = [];
  const load = (url: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(url);
      pending.set(url, { resolve, reject });
    });
  return { load, started, pending };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the route preload queue (SPEC §9: at most 4 in parallel)', () => {
  it('runs four loads at once and starts the next as one finishes', async () => {
    expect(PREFETCH_PARALLEL).toBe(4);
    const { load, started, pending } = manualLoads();
    const queue = createPrefetchQueue(load);
    for (let i = 1; i <= 7; i++) queue.add(`/en/page-${i}`);
    await settle();
    expect(started).toEqual(['/en/page-1', '/en/page-2', '/en/page-3', '/en/page-4']);
    expect(queue.running).toBe(4);
    expect(queue.waiting).toBe(3);

    pending.get('/en/page-2')!.resolve();
    await settle();
    expect(started).toHaveLength(5);
    expect(started[4]).toBe('/en/page-5');
    expect(queue.running).toBe(4);
  });

  it('frees a slot when a load fails, as when it succeeds', async () => {
    const { load, started, pending } = manualLoads();
    const queue = createPrefetchQueue(load);
    for (let i = 1; i <= 5; i++) queue.add(`/en/p${i}`);
    await settle();
    pending.get('/en/p1')!.reject(new Error('offline'));
    await settle();
    expect(started).toContain('/en/p5');
    expect(queue.waiting).toBe(0);
  });

  it('never runs more than four, however many are added while others finish', async () => {
    let running = 0;
    let most = 0;
    const queue = createPrefetchQueue(async () => {
      running += 1;
      most = Math.max(most, running);
      await settle();
      running -= 1;
    });
    for (let i = 0; i < 30; i++) queue.add(`/en/v${i}`);
    while (queue.running || queue.waiting) await settle();
    expect(most).toBe(4);
  });

  it('loads each page once', async () => {
    const { load, started } = manualLoads();
    const queue = createPrefetchQueue(load);
    expect(queue.add('/en/a')).toBe(true);
    expect(queue.add('/en/a')).toBe(false);
    await settle();
    expect(started).toEqual(['/en/a']);
  });
});

describe('which links are preloaded', () => {
  const here = { href: 'https://kiraboshi.example/en/search?q=a#top', origin: 'https://kiraboshi.example' };
  const link = (href: string, attributes: Record<string, string> = {}) => ({
    href,
    target: attributes.target ?? '',
    hasAttribute: (name: string) => name in attributes,
  });

  it('another page of the site, without its hash', () => {
    expect(prefetchTarget(link('https://kiraboshi.example/en/video/kv12#comments'), here)).toBe(
      'https://kiraboshi.example/en/video/kv12',
    );
  });

  it('not the page shown, another site, the API, media, downloads, new tabs or marked links', () => {
    expect(prefetchTarget(link('https://kiraboshi.example/en/search?q=a#results'), here)).toBeNull();
    expect(prefetchTarget(link('https://elsewhere.example/'), here)).toBeNull();
    expect(prefetchTarget(link('https://kiraboshi.example/api/videos'), here)).toBeNull();
    expect(prefetchTarget(link('https://kiraboshi.example/media/videos/1/master.m3u8'), here)).toBeNull();
    expect(prefetchTarget(link('https://kiraboshi.example/en/about', { download: '' }), here)).toBeNull();
    expect(prefetchTarget(link('https://kiraboshi.example/en/about', { target: '_blank' }), here)).toBeNull();
    expect(prefetchTarget(link('https://kiraboshi.example/en/logout', { 'data-no-prefetch': '' }), here)).toBeNull();
    expect(prefetchTarget(link('mailto:someone@example.com'), here)).toBeNull();
  });
});

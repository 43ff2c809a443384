import { afterEach, describe, expect, it, vi } from 'vitest';
import { $selfUser, fetchSelfUser } from '../../src/lib/stores/self-user.ts';

/** What the browser asked, path only, while `answer` stands in for the network. */
function network(answer: (path: string) => Promise<Response>): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (url: string) => {
    const path = new URL(url, 'http://site.test').pathname;
    asked.push(path);
    return answer(path);
  });
  return asked;
}

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

afterEach(() => {
  vi.unstubAllGlobals();
  $selfUser.set({ isEffectiveCheckOnce: false, isLogined: true, userInfo: null });
});

describe('the self user store', () => {
  it('logs out when the server refuses the session', async () => {
    const asked = network((path) =>
      path.endsWith('/user/self')
        ? json(401, { success: false, code: 'NOT_LOGGED_IN', message: 'log in' })
        : json(200, { success: true }),
    );
    expect(await fetchSelfUser()).toBe(null);
    expect(asked).toEqual(['/api/user/self', '/api/user/logout']);
    expect($selfUser.get()).toMatchObject({ isLogined: false, isEffectiveCheckOnce: true });
  });

  it('keeps the session on the server when the request got no answer (offline, the page being left)', async () => {
    const asked = network(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await fetchSelfUser()).toBe(null);
    expect(asked).toEqual(['/api/user/self']);
    expect($selfUser.get()).toMatchObject({ isLogined: false, isEffectiveCheckOnce: true });
  });
});

// Kiraboshi service worker: hashed build assets are immutable, so they are served from cache
// after the first visit. Pages and API calls always go to the network (never stale).
const CACHE = 'kiraboshi-assets-v1';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  // A request meant to outlive its page (the player's last history write on leaving) is sent by
  // the worker itself: one left to the page's own loader dies with the page it came from.
  if (event.request.keepalive) {
    event.respondWith(fetch(event.request));
    return;
  }
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith('/_astro/')) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const hit = await cache.match(event.request);
      if (hit) return hit;
      const response = await fetch(event.request);
      if (response.ok) cache.put(event.request, response.clone());
      return response;
    }),
  );
});

/**
 * The address visitors use to reach the site, and who they are, when a TLS-terminating proxy
 * (nginx, Caddy, a CDN) stands in front: the request this process sees is plain http from the
 * proxy. One place decides it for the CSRF check, cookies' Secure flag, signed upload URLs,
 * the site's language redirects and rate limits, so they can never disagree.
 */
export interface ProxySettings {
  /** PUBLIC_SITE_URL: the site's own address, trusted over any header. */
  publicSiteUrl?: string;
  /** TRUST_PROXY=N: N proxies in front of this process add X-Forwarded-Proto/For (0: none). */
  proxyHops: number;
}

type HeaderReader = (name: string) => string | undefined;

const firstValue = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

/**
 * The origin (scheme://host[:port]) of the site as the visitor's browser sees it. Behind proxies
 * the scheme is the proxy's X-Forwarded-Proto; the host is always the Host header the proxy
 * passes on (nginx `proxy_set_header Host $host`, Caddy by default), never X-Forwarded-Host: a
 * proxy that does not set that header passes on whatever the client wrote there, which would
 * let anyone move the origin the CSRF check accepts and the address of signed upload URLs.
 */
export function publicOrigin(requestUrl: string, header: HeaderReader, settings: ProxySettings): string {
  if (settings.publicSiteUrl) return new URL(settings.publicSiteUrl).origin;
  const url = new URL(requestUrl);
  if (settings.proxyHops === 0) return url.origin;
  const proto = firstValue(header('x-forwarded-proto'))?.toLowerCase();
  return `${proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1)}://${url.host}`;
}

/** Whether the visitor's connection is HTTPS (cookies are then sent Secure only). */
export function isPublicHttps(requestUrl: string, header: HeaderReader, settings: ProxySettings): boolean {
  return publicOrigin(requestUrl, header, settings).startsWith('https:');
}

/**
 * The visitor's address. Each proxy appends the address it received the request from to
 * X-Forwarded-For, so with N trusted proxies the visitor is the Nth entry from the right;
 * entries further left were written by the visitor and prove nothing.
 */
export function clientAddress(
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  settings: ProxySettings,
): string {
  if (settings.proxyHops > 0 && forwardedFor) {
    const hops = forwardedFor
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const visitor = hops[hops.length - settings.proxyHops] ?? hops[0];
    if (visitor) return visitor;
  }
  return socketAddress || 'unknown';
}

/** PUBLIC_SITE_URL is an http(s) origin and nothing more; anything else is refused at start. */
export function readPublicSiteUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !/^https?:$/.test(url.protocol) || url.pathname.replace(/\/$/, '') !== '' || url.search || url.hash) {
    throw new Error(`PUBLIC_SITE_URL must be the site's origin, such as https://kiraboshi.example, not "${value}"`);
  }
  return url.origin;
}

/** TRUST_PROXY: unset or 0 trusts no forwarded header; N (1 to 10) proxies in front. */
export function readProxyHops(value: string | undefined): number {
  if (!value || value === '0') return 0;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 1 || hops > 10)
    throw new Error(`TRUST_PROXY must be the number of proxies in front of the server (0 to 10), not "${value}"`);
  return hops;
}

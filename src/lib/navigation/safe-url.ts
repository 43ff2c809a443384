/**
 * Navigation guard of SPEC §2: script-type protocols are always refused, external URLs are
 * refused unless their origin is explicitly allowed.
 */
const SCRIPT_PROTOCOLS = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'file:']);

export type NavigationVerdict =
  | { ok: true; url: URL; external: boolean }
  | { ok: false; reason: 'script-protocol' | 'external-not-allowed' | 'invalid' };

export function checkNavigation(
  target: string,
  currentOrigin: string,
  allowedOrigins: readonly string[] = [],
): NavigationVerdict {
  let url: URL;
  try {
    // Control characters and whitespace inside a scheme ("java\tscript:") are stripped by browsers; do the same.
    url = new URL(target.replace(/[\u0000-\u001F\u007F\s]+/g, ''), currentOrigin);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (SCRIPT_PROTOCOLS.has(url.protocol)) return { ok: false, reason: 'script-protocol' };
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'mailto:') {
    return { ok: false, reason: 'external-not-allowed' };
  }
  if (url.origin === currentOrigin) return { ok: true, url, external: false };
  if (allowedOrigins.includes(url.origin)) return { ok: true, url, external: true };
  return { ok: false, reason: 'external-not-allowed' };
}

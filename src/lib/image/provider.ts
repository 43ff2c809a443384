/**
 * The image provider of SPEC §3 (PUBLIC_IMAGE_PROVIDER): who makes the sizes of a picture that
 * `srcset` offers.
 * - `local`: the site's own files. The media pipeline writes every size and format beside the
 *   original (posters: poster-<token>-<width>.<format>; photos: <base>/<width>.<format>), and the
 *   page names them.
 * - `template`: a resizing service in front of the originals, imgproxy-style. PUBLIC_IMAGE_PROVIDER_URL
 *   is its address with `{width}` (pixels) and `{src}` (the picture's address as the site serves
 *   it, a path such as /media/… or an absolute URL, percent-encoded), e.g.
 *   `https://img.example/insecure/rs:fit:{width}/plain/{src}` with imgproxy's IMGPROXY_BASE_URL set
 *   to the site. The service picks the format from the browser's Accept header, so the page offers
 *   one `srcset` of widths and no per-format sources.
 */
export const IMAGE_PROVIDERS = ['local', 'template'] as const;

export type ImageProvider = { kind: 'local' } | { kind: 'template'; url: string };

export const LOCAL_IMAGES: ImageProvider = { kind: 'local' };

/** The provider PUBLIC_IMAGE_PROVIDER and PUBLIC_IMAGE_PROVIDER_URL name; a setting that cannot work throws, saying why. */
export function readImageProvider(name: string | undefined, url: string | undefined): ImageProvider {
  if (!name || name === 'local') return LOCAL_IMAGES;
  if (name !== 'template')
    throw new Error(`PUBLIC_IMAGE_PROVIDER must be ${IMAGE_PROVIDERS.join(' or ')}, not "${name}"`);
  if (
    !url ||
    !url.includes('{src}') ||
    !url.includes('{width}') ||
    !URL.canParse(url.replace(/\{\w+\}/g, 'x'), 'http://site.invalid/')
  ) {
    throw new Error(
      `PUBLIC_IMAGE_PROVIDER=template needs PUBLIC_IMAGE_PROVIDER_URL, an address with {width} and {src} such as https://img.example/{width}/{src}, not "${url ?? ''}"`,
    );
  }
  return { kind: 'template', url };
}

/** The provider's address of `src` at `width` pixels wide. */
export function resizedImageUrl(
  provider: Extract<ImageProvider, { kind: 'template' }>,
  src: string,
  width: number,
): string {
  return provider.url.replaceAll('{width}', String(Math.round(width))).replaceAll('{src}', encodeURIComponent(src));
}

/** A `srcset` of `src` at each of `widths`, made by the provider. */
export function resizedSrcset(
  provider: Extract<ImageProvider, { kind: 'template' }>,
  src: string,
  widths: readonly number[],
): string {
  return widths.map((w) => `${resizedImageUrl(provider, src, w)} ${w}w`).join(', ');
}

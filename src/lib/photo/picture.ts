/**
 * How a rendered photo is offered to the browser: a `<picture>` with AVIF and WebP sources and a
 * JPEG fallback, each listing every width written (`srcset`), so the browser fetches the smallest
 * file that fills the space at the screen's density. Shared by the grid (Astro) and the viewer (React).
 */
import type { PhotoImage } from '../api/contracts/photo.ts';
import { localizePath, type Locale } from '../i18n/locales.ts';
import { LOCAL_IMAGES, resizedImageUrl, resizedSrcset, type ImageProvider } from '../image/provider.ts';

/**
 * `avif` and `webp` are null from a template provider, which picks the format itself; `jpeg` is then
 * its one srcset. `src` is about 640 px wide, `smallest` the smallest size (thumbnails).
 */
export interface PictureSources {
  avif: string | null;
  webp: string | null;
  jpeg: string;
  src: string;
  smallest: string;
}

export function pictureSources(
  image: Pick<PhotoImage, 'base' | 'widths' | 'animated'>,
  provider: ImageProvider = LOCAL_IMAGES,
): PictureSources | null {
  if (!image.base || !image.widths.length) return null;
  const set = (ext: string) => image.widths.map((w) => `${image.base}/${w}.${ext} ${w}w`).join(', ');
  const middle = image.widths.find((w) => w >= 640) ?? image.widths[image.widths.length - 1];
  if (provider.kind === 'template') {
    // The largest size written is the original the service resizes (an animated one stays a GIF/WebP: the service keeps it).
    const original = `${image.base}/${Math.max(...image.widths)}.${image.animated ? 'webp' : 'jpg'}`;
    return {
      avif: null,
      webp: null,
      jpeg: resizedSrcset(provider, original, image.widths),
      src: resizedImageUrl(provider, original, middle!),
      smallest: resizedImageUrl(provider, original, image.widths[0]!),
    };
  }
  return {
    avif: image.animated ? null : set('avif'),
    webp: set('webp'),
    jpeg: set('jpg'),
    src: `${image.base}/${middle}.jpg`,
    smallest: `${image.base}/${image.widths[0]}.${image.animated ? 'webp' : 'jpg'}`,
  };
}

/** Width over height (1 when unknown), for layout before the image arrives. */
export const aspectOf = (image: Pick<PhotoImage, 'width' | 'height'>) =>
  image.width && image.height ? image.width / image.height : 1;

export const photoPostPath = (photoId: number, locale: Locale) => localizePath(`/photo/kp${photoId}`, locale);

/** A post id written as kp{id} in the address (as videos are kv{id}). */
export function parseKpid(text: string): number | null {
  const match = /^kp([1-9]\d{0,14})$/i.exec(text);
  return match ? Number(match[1]) : null;
}

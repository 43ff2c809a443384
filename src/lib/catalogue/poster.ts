import { LOCAL_IMAGES, resizedImageUrl, resizedSrcset, type ImageProvider } from '../image/provider.ts';

/**
 * Poster images in several sizes and formats (made by the media pipeline, server/media/poster-set.ts):
 * `poster-<token>-<width>.<format>` beside the HLS renditions, the token a hash of the frame, so
 * the files never change under their names and are cached for a year. A thumb's `image` names the
 * 640 px JPEG; the cards derive the other sizes and formats from it.
 */
/**
 * 960 is there for phones at 1.75-2.5× and two-column tablets, which would otherwise take the
 * 1280 file for a card 384 px wide (migration 0021 remade older sets with it).
 */
export const POSTER_WIDTHS = [320, 640, 960, 1280] as const;
export const POSTER_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type PosterFormat = (typeof POSTER_FORMATS)[number];
export const POSTER_DEFAULT_WIDTH = 640;

export const posterFileName = (token: string, width: number, format: PosterFormat) =>
  `poster-${token}-${width}.${format}`;

/** Immutable poster variants (the static file server caches them for a year). */
export const POSTER_VARIANT_PATTERN = /\/poster-[0-9a-f]{12}-\d+\.(avif|webp|jpg)$/;
const DEFAULT_VARIANT = /poster-([0-9a-f]{12})-640\.jpg$/;

export interface PosterSources {
  /** The fallback `src` (640 px wide; a JPEG from the site's own files). */
  src: string;
  /** One `srcset` per format, best first (none from a template provider, which picks the format). */
  sets: Array<{ type: string; srcset: string }>;
  jpgSrcset: string;
}

/**
 * The sizes (and, from the site's own files, formats) of a poster or cover, or null for a picture
 * offered as it is. With the `local` provider those are the poster set's files, which older posters
 * and covers do not have; a `template` provider resizes any picture: the largest file of a set, or
 * the picture itself.
 */
export function posterSources(image: string, provider: ImageProvider = LOCAL_IMAGES): PosterSources | null {
  const match = DEFAULT_VARIANT.exec(image);
  if (provider.kind === 'template') {
    if (!image) return null;
    const original = match
      ? `${image.slice(0, match.index)}${posterFileName(match[1]!, POSTER_WIDTHS[POSTER_WIDTHS.length - 1], 'jpg')}`
      : image;
    return {
      src: resizedImageUrl(provider, original, POSTER_DEFAULT_WIDTH),
      sets: [],
      jpgSrcset: resizedSrcset(provider, original, POSTER_WIDTHS),
    };
  }
  if (!match) return null;
  const base = image.slice(0, match.index);
  const srcset = (format: PosterFormat) =>
    POSTER_WIDTHS.map((w) => `${base}${posterFileName(match[1]!, w, format)} ${w}w`).join(', ');
  return {
    src: image,
    sets: [
      { type: 'image/avif', srcset: srcset('avif') },
      { type: 'image/webp', srcset: srcset('webp') },
    ],
    jpgSrcset: srcset('jpg'),
  };
}

/** Card widths per layout (catalogue.css grid: one column on phones, up to five). */
export const CARD_IMAGE_SIZES = '(max-width: 639px) calc(100vw - 28px), (max-width: 991px) 45vw, 320px';
/**
 * Square audio covers are 16:9 pictures cropped to a square (object-fit: cover), so the picture is
 * 16/9 of the box's width: a card (two columns on phones, 160-240 px on wider screens) and the
 * player's 160 px cover.
 */
export const AUDIO_CARD_IMAGE_SIZES = '(max-width: 639px) 90vw, 430px';
export const AUDIO_PLAYER_IMAGE_SIZES = '(max-width: 639px) 171px, 285px';
/**
 * How a picture loads: at once and first ('high': the largest paint), at once ('eager'), or when
 * scrolled near ('lazy').
 */
export type PictureLoading = 'high' | 'eager' | 'lazy';
/** Cards in the first row (up to four wide) load at once; the rest lazily. */
export const EAGER_CARDS = 4;
/**
 * Of those, the first two (what a phone shows above the fold) with high priority: the largest
 * paint does not share the connection with cards a phone only shows on scrolling.
 */
export const HIGH_PRIORITY_CARDS = 2;
export const cardLoading = (index: number): PictureLoading =>
  index < HIGH_PRIORITY_CARDS ? 'high' : index < EAGER_CARDS ? 'eager' : 'lazy';

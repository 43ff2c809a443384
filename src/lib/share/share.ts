/**
 * Sharing a page outside the site: its card (OpenGraph and Twitter tags read by chats, forums
 * and social sites), the embed player's address and iframe code, links at a moment (`?t=83`),
 * and which page an address names (for oEmbed). Framework-free: the layout, the share menu, the
 * embed page and the server's oEmbed answer use the same functions.
 */
import { LOCALE_INFO, splitLocale, type Locale } from '../i18n/locales.ts';
import { POSTER_VARIANT_PATTERN, posterSources } from '../catalogue/poster.ts';

export type ShareKind = 'video' | 'audio';
export type CardType = 'website' | 'video.other' | 'music.song' | 'article' | 'profile';

export interface ShareCard {
  title: string;
  description: string;
  /** Absolute. */
  image: string;
  imageWidth?: number;
  imageHeight?: number;
  /** The page's canonical absolute address in its language. */
  url: string;
  type: CardType;
  /** Video and track pages: the embed player (og:video, twitter:player) and its size. */
  player?: { url: string; width: number; height: number };
  /** The page's oEmbed discovery address (absolute). */
  oembed?: string;
}

/** The site's own card picture (1200×630), for pages without a picture of their own (src/integrations/offline-app.ts). */
export const SITE_CARD_IMAGE = { path: '/icons/share-card.png', width: 1200, height: 630 } as const;
/** The embed's default size; a track's player is a bar. */
export const EMBED_SIZE: Record<ShareKind, { width: number; height: number }> = {
  video: { width: 640, height: 360 },
  audio: { width: 640, height: 160 },
};
/** The poster width offered to cards (the largest the pipeline makes, close to the 1200 cards ask for). */
const CARD_POSTER_WIDTH = 1280;

/** og:locale is language_TERRITORY. */
export function ogLocale(locale: Locale): string {
  const [language, , territory] = LOCALE_INFO[locale].htmlLang.split('-');
  return territory ? `${language}_${territory}` : LOCALE_INFO[locale].htmlLang.replace('-', '_');
}

/** An absolute address from a site path (or one that already is absolute). */
export const absoluteUrl = (pathOrUrl: string, origin: string): string => new URL(pathOrUrl, origin).href;

/** A poster or cover for a card: the 1280 px JPEG of a poster set, the picture itself otherwise, the site card when none. */
export function cardImage(
  image: string | null | undefined,
  origin: string,
): { url: string; width?: number; height?: number } {
  if (!image)
    return {
      url: absoluteUrl(SITE_CARD_IMAGE.path, origin),
      width: SITE_CARD_IMAGE.width,
      height: SITE_CARD_IMAGE.height,
    };
  // Any size or format of a poster set (the video page's poster is its 1280 px WebP): the 1280 px JPEG, which every reader takes.
  if (POSTER_VARIANT_PATTERN.test(image))
    return {
      url: absoluteUrl(image.replace(/-\d+\.(avif|webp|jpg)$/, `-${CARD_POSTER_WIDTH}.jpg`), origin),
      width: CARD_POSTER_WIDTH,
      height: Math.round((CARD_POSTER_WIDTH * 9) / 16),
    };
  const sources = posterSources(image);
  if (!sources) return { url: absoluteUrl(image, origin) };
  const large = sources.jpgSrcset
    .split(', ')
    .find((entry) => entry.endsWith(` ${CARD_POSTER_WIDTH}w`))
    ?.split(' ')[0];
  return large
    ? { url: absoluteUrl(large, origin), width: CARD_POSTER_WIDTH, height: Math.round((CARD_POSTER_WIDTH * 9) / 16) }
    : { url: absoluteUrl(image, origin) };
}

export const embedPath = (kind: ShareKind, id: number): string => `/embed/${kind === 'video' ? 'kv' : 'ka'}${id}`;
export const pagePath = (kind: ShareKind, id: number): string =>
  kind === 'video' ? `/video/kv${id}` : `/audio/ka${id}`;

/** The iframe another site pastes to show the player. */
export function embedCode(kind: ShareKind, id: number, origin: string, size = EMBED_SIZE[kind]): string {
  const src = absoluteUrl(embedPath(kind, id), origin);
  return `<iframe src="${src}" width="${size.width}" height="${size.height}" style="border:0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`;
}

/** A page's address with `?t=` (whole seconds) in place of any earlier moment; 0 or less leaves it out. */
export function linkAtTime(url: string, seconds: number): string {
  const address = new URL(url);
  address.searchParams.delete('t');
  const whole = Math.floor(seconds);
  if (whole > 0) address.searchParams.set('t', String(whole));
  return address.href;
}

/** `?t=` of a shared link: seconds (`83`, `83.5`) or `1h2m3s`; null when absent or unreadable. */
export function startTimeFrom(search: URLSearchParams | string): number | null {
  const value = (typeof search === 'string' ? new URLSearchParams(search) : search).get('t')?.trim() ?? '';
  if (/^\d{1,6}(\.\d+)?$/.test(value)) return Number(value);
  const parts = /^(?:(\d{1,3})h)?(?:(\d{1,4})m)?(?:(\d{1,6})s)?$/.exec(value);
  if (!value || !parts || !(parts[1] || parts[2] || parts[3])) return null;
  return Number(parts[1] ?? 0) * 3600 + Number(parts[2] ?? 0) * 60 + Number(parts[3] ?? 0);
}

/** The largest id the site hands out (ids.ts: at most 15 digits). */
const ID = '([1-9]\\d{0,14})';
const PAGE_PATTERNS: Array<[RegExp, ShareKind]> = [
  [new RegExp(`^/video/kv${ID}/?$`), 'video'],
  [new RegExp(`^/audio/ka${ID}/?$`), 'audio'],
  [new RegExp(`^/embed/kv${ID}/?$`), 'video'],
  [new RegExp(`^/embed/ka${ID}/?$`), 'audio'],
];

export type ShareTarget = { kind: ShareKind; id: number; locale: Locale };
/**
 * The video or track an address on this site names (its page in any language, or its embed);
 * `foreign` for another site's address, `invalid` for no address or one naming nothing shareable.
 */
export function shareTargetOf(url: string, siteOrigin: string): ShareTarget | 'foreign' | 'invalid' {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return 'invalid';
  }
  if (address.protocol !== 'http:' && address.protocol !== 'https:') return 'invalid';
  if (address.origin !== new URL(siteOrigin).origin) return 'foreign';
  const { locale, route } = splitLocale(address.pathname);
  for (const [pattern, kind] of PAGE_PATTERNS) {
    const match = pattern.exec(route);
    if (match) return { kind, id: Number(match[1]), locale };
  }
  return 'invalid';
}

/** A card whose addresses may be site paths, made absolute against the site's origin. */
export function absoluteCard(card: ShareCard, origin: string): ShareCard {
  return {
    ...card,
    url: absoluteUrl(card.url, origin),
    image: absoluteUrl(card.image, origin),
    ...(card.player ? { player: { ...card.player, url: absoluteUrl(card.player.url, origin) } } : {}),
    ...(card.oembed ? { oembed: absoluteUrl(card.oembed, origin) } : {}),
  };
}

/** A card's description: the text's first sentence-sized piece, on one line. */
export function cardDescription(text: string | null | undefined, fallback: string): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!line) return fallback;
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * The card of a video's or a track's page: its poster or cover, the embed player, the oEmbed
 * address (PUBLIC_API_BASE's `oembed`, naming the page in the language shown).
 */
export function mediaCard(
  kind: ShareKind,
  id: number,
  media: { title: string; description: string; image: string; fallbackDescription: string },
  page: { path: string; apiBase: string; origin: string },
): Partial<ShareCard> {
  const image = cardImage(media.image, page.origin);
  const pageUrl = absoluteUrl(page.path, page.origin);
  return {
    title: media.title,
    description: cardDescription(media.description, media.fallbackDescription),
    type: kind === 'video' ? 'video.other' : 'music.song',
    url: page.path,
    image: image.url,
    imageWidth: image.width,
    imageHeight: image.height,
    player: { url: embedPath(kind, id), ...EMBED_SIZE[kind] },
    oembed: `${page.apiBase}oembed?format=json&url=${encodeURIComponent(pageUrl)}`,
  };
}

/** The origin absolute addresses are written with: PUBLIC_SITE_URL when set, else the address this page was asked at. */
export const shareOrigin = (configured: string, requestOrigin: string | undefined): string =>
  configured || requestOrigin || 'http://localhost:4321';

/** A photo post's card (OpenGraph has no photo type: an article whose picture is the first photo, at most 1280 wide). */
export function photoCard(post: {
  title: string;
  description: string;
  fallbackDescription: string;
  path: string;
  first?: { base: string; widths: number[]; width: number; height: number };
}): Partial<ShareCard> {
  const first = post.first;
  const width =
    first && first.base
      ? ([...first.widths]
          .sort((a, b) => a - b)
          .filter((w) => w <= CARD_POSTER_WIDTH)
          .pop() ?? Math.min(...first.widths))
      : 0;
  return {
    title: post.title,
    description: cardDescription(post.description, post.fallbackDescription),
    type: 'article',
    url: post.path,
    ...(first && width
      ? {
          image: `${first.base}/${width}.jpg`,
          imageWidth: width,
          imageHeight: Math.round((first.height * width) / first.width),
        }
      : {}),
  };
}

/**
 * A small RSS 2.0 writer with the Media RSS and Atom namespaces (docs/decisions/0016-share-embeds-feeds.md):
 * what the site's feeds need and nothing more, every text escaped.
 */
export interface FeedItem {
  title: string;
  /** The item's page, also its permanent id. */
  link: string;
  description: string;
  published: Date;
  author: string;
  categories: string[];
  /** The stream (HLS master playlist): media:content. */
  media: { url: string; type: string; durationSeconds: number };
  /** The poster: the enclosure, and media:thumbnail. */
  thumbnail?: { url: string; width?: number; height?: number };
}

export interface Feed {
  title: string;
  /** The page the feed is of. */
  link: string;
  /** The feed's own address (atom:link rel=self). */
  self: string;
  description: string;
  /** BCP 47. */
  language: string;
  image: string;
  items: FeedItem[];
}

const escapeXml = (text: string): string =>
  // Characters XML 1.0 does not allow (control characters) are dropped, the rest escaped.
  text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

const imageType = (url: string) =>
  /\.png$/i.test(url)
    ? 'image/png'
    : /\.webp$/i.test(url)
      ? 'image/webp'
      : /\.avif$/i.test(url)
        ? 'image/avif'
        : 'image/jpeg';
const element = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;
const attributes = (values: Record<string, string | number | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');

function renderItem(item: FeedItem): string {
  const duration = Math.round(item.media.durationSeconds);
  return [
    '<item>',
    element('title', item.title),
    element('link', item.link),
    `<guid isPermaLink="true">${escapeXml(item.link)}</guid>`,
    element('description', item.description),
    element('pubDate', item.published.toUTCString()),
    element('dc:creator', item.author),
    ...item.categories.map((name) => element('category', name)),
    // The poster as the enclosure: readers show an image enclosure as the item's picture, and an
    // HLS playlist is nothing a podcast app could download. Its length is unknown: 0, as readers expect.
    item.thumbnail
      ? `<enclosure${attributes({ url: item.thumbnail.url, type: imageType(item.thumbnail.url), length: 0 })}/>`
      : '',
    `<media:content${attributes({ url: item.media.url, type: item.media.type, medium: 'video', duration: duration || undefined })}>`,
    element('media:title', item.title),
    element('media:description', item.description),
    item.thumbnail
      ? `<media:thumbnail${attributes({ url: item.thumbnail.url, width: item.thumbnail.width, height: item.thumbnail.height })}/>`
      : '',
    '</media:content>',
    '</item>',
  ].join('');
}

export function renderRss(feed: Feed): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    element('title', feed.title),
    element('link', feed.link),
    `<atom:link${attributes({ href: feed.self, rel: 'self', type: 'application/rss+xml' })}/>`,
    element('description', feed.description),
    element('language', feed.language),
    element('generator', 'Kiraboshi'),
    ...(feed.items[0] ? [element('lastBuildDate', feed.items[0].published.toUTCString())] : []),
    `<image>${element('url', feed.image)}${element('title', feed.title)}${element('link', feed.link)}</image>`,
    ...feed.items.map(renderItem),
    '</channel>',
    '</rss>\n',
  ].join('');
}

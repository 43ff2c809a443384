import type { APIRoute } from 'astro';
import { translatorFor } from '../../lib/i18n/catalogs.ts';
import { CATALOG_LOCALES, LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { publicConfig } from '../../lib/public-config.ts';
import { absoluteUrl, cardImage, SITE_CARD_IMAGE, shareOrigin } from '../../lib/share/share.ts';
import { feedScopeOf } from '../../lib/share/feeds.ts';
import { renderRss } from '../../lib/share/rss.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';

export const prerender = false;

const text = (status: number, body: string) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=0, s-maxage=30' },
  });

/**
 * /feeds/videos.xml (the whole site), ?uid=N (an uploader), ?tag=N (a tag): the newest 50 approved
 * videos as RSS 2.0 with Media RSS (docs/decisions/0016-share-embeds-feeds.md), `?lang=` for the texts (the
 * default language otherwise); read at request time and cached as the pages are.
 */
export const GET: APIRoute = async ({ url, locals }) => {
  const scope = feedScopeOf(url.searchParams);
  if (!scope) return text(400, 'Bad Request: give uid=N or tag=N (positive whole numbers), or neither');
  const asked = url.searchParams.get('lang') ?? '';
  const locale: Locale = (CATALOG_LOCALES as readonly string[]).includes(asked)
    ? (asked as Locale)
    : publicConfig.i18n.fallbackLocale;
  const found = await locals.site?.feedVideos(scope);
  if (!found) return text(404, 'Not Found');
  const { t } = translatorFor(locale);
  const origin = shareOrigin(publicConfig.i18n.baseUrl, url.origin);
  const siteName = t('site.name');
  const userName = found.user ? found.user.userNickname || found.user.username : '';
  const tagName = found.tag ? tagDisplayName(found.tag, locale) : '';
  const [title, pageRoute] =
    scope.kind === 'user'
      ? [t('share.feedOfUser', { name: userName, site: siteName }), `/user/${scope.uid}`]
      : scope.kind === 'tag'
        ? [t('share.feedOfTag', { tag: tagName, site: siteName }), `/search?tag=${scope.tagId}`]
        : [t('share.feedOfSite', { site: siteName }), '/'];
  const manifest = (videoId: number) =>
    absoluteUrl(publicConfig.videoManifestUrl.replace('{videoId}', String(videoId)), origin);
  const xml = renderRss({
    title,
    link: absoluteUrl(localizePath(pageRoute, locale), origin),
    self: absoluteUrl(url.pathname + url.search, origin),
    description: t('site.description'),
    language: LOCALE_INFO[locale].htmlLang,
    image: absoluteUrl(SITE_CARD_IMAGE.path, origin),
    items: found.videos.map((video) => {
      const thumbnail = video.image ? cardImage(video.image, origin) : null;
      return {
        title: video.title,
        link: absoluteUrl(localizePath(`/video/kv${video.videoId}`, locale), origin),
        description: video.description,
        published: new Date(video.uploadDate),
        author: video.uploaderNickname || video.uploader,
        categories: [t(`video.categories.${video.videoCategory}`)],
        media: {
          url: manifest(video.videoId),
          type: 'application/vnd.apple.mpegurl',
          durationSeconds: video.duration / 1000,
        },
        ...(thumbnail ? { thumbnail } : {}),
      };
    }),
  });
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=60, stale-while-revalidate=600',
    },
  });
};

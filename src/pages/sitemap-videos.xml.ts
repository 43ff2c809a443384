import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, localizedUrls, urlSet } from '../lib/navigation/sitemap.ts';

export const prerender = false;

/** Each video is listed in all nine languages; 5,000 videos keep the file under 50,000 URLs. */
export const SITEMAP_VIDEO_LIMIT = 5000;

// Every approved video with its last change, read at request time: a new video appears at once.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const origin = site?.origin ?? url.origin;
  const videos = (await locals.site?.sitemapVideos(SITEMAP_VIDEO_LIMIT)) ?? [];
  const body = urlSet(videos.map((v) => localizedUrls(origin, `/video/kv${v.videoId}`, v.updated)).join(''));
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};

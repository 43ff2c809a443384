import type { APIRoute } from 'astro';
import { numberedSitemapFile } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// One file of the video sitemap (the index lists them), read at request time: a newly approved
// video appears at once, without a rebuild. A file without approved videos does not exist.
export const GET: APIRoute = ({ params, site, url, locals }) =>
  numberedSitemapFile(params.file, site?.origin ?? url.origin, async (file) =>
    ((await locals.site?.sitemapVideos(file)) ?? []).map((video) => ({
      route: `/video/kv${video.videoId}`,
      updated: video.updated,
    })),
  );

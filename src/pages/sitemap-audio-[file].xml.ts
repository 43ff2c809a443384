import type { APIRoute } from 'astro';
import { numberedSitemapFile } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// One file of the audio sitemap (the index lists them; paged by track id as the video sitemap is),
// read at request time: a newly approved track appears at once. A file without approved tracks does not exist.
export const GET: APIRoute = ({ params, site, url, locals }) =>
  numberedSitemapFile(params.file, site?.origin ?? url.origin, async (file) =>
    ((await locals.site?.sitemapAudio(file)) ?? []).map((track) => ({
      route: `/audio/ka${track.audioId}`,
      updated: track.updated,
    })),
  );

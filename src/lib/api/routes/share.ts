import { defineRoutes } from '../route.ts';
import { oembedQuery, oembedResponse } from '../contracts/share.ts';

/** Sharing outside the site (the pages link it with <link rel="alternate" type="application/json+oembed">). */
export const shareRoutes = defineRoutes({
  'GET oembed': {
    tag: 'video',
    summary:
      'oEmbed 1.0 (JSON) of a video or track address of this site: its embed player as an iframe, sized within maxwidth and maxheight.',
    permission: 'catalogue.read',
    query: oembedQuery,
    response: oembedResponse,
    cache: 'public',
    errors: ['NOT_FOUND', 'OEMBED_FORMAT_UNSUPPORTED'],
  },
});

import type { HandlerSet } from '../mount-routes.ts';

/** oEmbed (https://oembed.com): other sites turn a pasted address of a video or track into its embed player. */
export const shareHandlers: HandlerSet<'oembed'> = {
  'GET oembed': async (query, { services, origin, locale }) => services.share.oembed(query, origin, locale),
};

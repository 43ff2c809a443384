/**
 * oEmbed (https://oembed.com): other sites turn a pasted address of a video or track into its
 * embed player. Only what is public: an embed shows its media to anyone.
 */
import { DomainError, Invalid, NotFound } from '../domain/errors.ts';
import { translatorFor } from '#lib/i18n/catalogs.ts';
import { localizePath, type CatalogLocale } from '#lib/i18n/locales.ts';
import { EMBED_SIZE, absoluteUrl, cardImage, embedCode, shareTargetOf } from '#lib/share/share.ts';
import type { oembedQuery, OembedResponse } from '#lib/api/contracts/share.ts';
import type { z } from 'zod';
import type { createCatalogue } from './catalogue.ts';
import type { createAudioService } from './audio.ts';

/** How long a consumer may keep an answer (seconds): titles and covers change rarely. */
const OEMBED_CACHE_AGE = 3600;

/** The embed's size within the consumer's bounds, keeping its shape. */
function fitted(size: { width: number; height: number }, maxwidth?: number, maxheight?: number) {
  const scale = Math.min(1, maxwidth ? maxwidth / size.width : 1, maxheight ? maxheight / size.height : 1);
  return { width: Math.round(size.width * scale), height: Math.round(size.height * scale) };
}

export function createShareService({
  catalogue,
  audio,
}: {
  catalogue: ReturnType<typeof createCatalogue>;
  audio: ReturnType<typeof createAudioService>;
}) {
  return {
    /** The embed of a video or track of this site named by `url`, as seen from `origin`, told in `locale`. */
    async oembed(
      { url, maxwidth, maxheight, format }: z.output<typeof oembedQuery>,
      origin: string,
      locale: CatalogLocale,
    ): Promise<OembedResponse> {
      if (format === 'xml') throw new DomainError('OEMBED_FORMAT_UNSUPPORTED');
      const target = shareTargetOf(url, origin);
      if (target === 'foreign') throw new Invalid([{ path: 'url', message: 'is not an address of this site' }]);
      if (target === 'invalid') throw new Invalid([{ path: 'url', message: 'names no video or track of this site' }]);
      // Only what is public: an embed shows its media to anyone.
      const looker = null;
      const media =
        target.kind === 'video'
          ? await catalogue.video(target.id, looker).then((v) =>
              v && v.status === 'approved'
                ? {
                    title: v.title,
                    image: v.image,
                    uid: v.uploaderInfo.uid,
                    author: v.uploaderInfo.userNickname || v.uploaderInfo.username,
                  }
                : null,
            )
          : await audio
              .track(target.id, looker)
              .then((a) =>
                a && a.status === 'approved'
                  ? { title: a.title, image: a.cover, uid: a.uploaderId, author: a.uploaderNickname || a.uploader }
                  : null,
              );
      if (!media) throw new NotFound();
      const size = fitted(EMBED_SIZE[target.kind], maxwidth, maxheight);
      const thumbnail = media.image ? cardImage(media.image, origin) : null;
      return {
        version: '1.0' as const,
        type: target.kind === 'video' ? ('video' as const) : ('rich' as const),
        title: media.title,
        author_name: media.author,
        author_url: absoluteUrl(localizePath(`/user/${media.uid}`, target.locale), origin),
        provider_name: translatorFor(locale).t('site.name'),
        provider_url: absoluteUrl('/', origin),
        cache_age: OEMBED_CACHE_AGE,
        ...(thumbnail
          ? {
              thumbnail_url: thumbnail.url,
              ...(thumbnail.width ? { thumbnail_width: thumbnail.width, thumbnail_height: thumbnail.height } : {}),
            }
          : {}),
        html: embedCode(target.kind, target.id, origin, size),
        ...size,
      };
    },
  };
}

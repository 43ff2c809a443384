import { CARD_IMAGE_SIZES, posterSources, type PictureLoading } from '../lib/catalogue/poster.ts';
import { siteImages } from '../lib/image/site-provider.ts';

/**
 * A poster or cover: the sizes and formats of its poster set when it has one (PosterPicture.astro's
 * twin), else the single image. Cards by default; `sizes`, `width` and `height` for other boxes.
 */
export function PosterImage({
  image,
  loading = 'lazy',
  sizes = CARD_IMAGE_SIZES,
  width = 320,
  height = 180,
  className,
}: {
  image: string;
  loading?: PictureLoading;
  sizes?: string;
  width?: number;
  height?: number;
  className?: string;
}) {
  const poster = posterSources(image, siteImages);
  return (
    <picture>
      {poster?.sets.map((set) => (
        <source key={set.type} type={set.type} srcSet={set.srcset} sizes={sizes} />
      ))}
      <img
        className={className}
        src={poster?.src ?? image}
        srcSet={poster?.jpgSrcset}
        sizes={poster ? sizes : undefined}
        alt=""
        loading={loading === 'lazy' ? 'lazy' : 'eager'}
        fetchPriority={loading === 'high' ? 'high' : undefined}
        decoding="async"
        width={width}
        height={height}
      />
    </picture>
  );
}

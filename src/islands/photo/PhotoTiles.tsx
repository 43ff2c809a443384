import type { TFunction } from 'i18next';
import type { PhotoThumb } from '../../lib/api/contracts/photo.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { aspectOf, photoPostPath, pictureSources } from '../../lib/photo/picture.ts';
import { siteImages } from '../../lib/image/site-provider.ts';
import '../../styles/photo.css';

/** The justified grid of posts for islands: the React twin of src/components/PhotoGrid.astro (same markup and classes). */
export default function PhotoTiles({ photos, locale, t }: { photos: PhotoThumb[]; locale: Locale; t: TFunction }) {
  return (
    <ul className="photo-grid">
      {photos.map((photo) => {
        const cover = photo.cover;
        const ar = cover ? aspectOf(cover) : 1;
        const sources = cover ? pictureSources(cover, siteImages) : null;
        const sizes = `${Math.ceil(ar * 360)}px`;
        return (
          <li
            key={photo.photoId}
            style={{ '--ar': ar.toFixed(4) } as React.CSSProperties}
            data-photo-id={photo.photoId}
          >
            <a className="photo-tile" href={photoPostPath(photo.photoId, locale)}>
              {sources ? (
                <picture>
                  {sources.avif && <source type="image/avif" srcSet={sources.avif} sizes={sizes} />}
                  {sources.webp && <source type="image/webp" srcSet={sources.webp} sizes={sizes} />}
                  <img
                    src={sources.src}
                    srcSet={sources.jpeg}
                    sizes={sizes}
                    alt={cover!.alt}
                    width={cover!.width}
                    height={cover!.height}
                    loading="lazy"
                    decoding="async"
                    style={cover!.placeholder ? { backgroundImage: `url(${cover!.placeholder})` } : undefined}
                  />
                </picture>
              ) : (
                <span className="photo-tile-empty">{t('photo.processing')}</span>
              )}
              {photo.imageCount > 1 && (
                <span className="photo-tile-count">{t('photo.imageCount', { count: photo.imageCount })}</span>
              )}
              <span className="photo-tile-caption">
                <strong>{photo.title}</strong>
                <small>{photo.uploaderNickname || photo.uploader}</small>
              </span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { SEARCH_PHOTO_ROW as SHOWN, type SearchPhotos } from '../../lib/catalogue/search-query.ts';
import PhotoTiles from './PhotoTiles.tsx';

/**
 * The photo posts matching a search (the same words, or the same tags, as the video results
 * above it), under their own heading; nothing when none match or the call fails (the video
 * results carry the page's error state). `initial`: what the page found on the server (null: ask
 * the API once mounted).
 */
export default function PhotoSearchResults({
  locale,
  t,
  keyword,
  tagIds,
  initial,
}: {
  locale: Locale;
  t: TFunction;
  keyword: string;
  tagIds: number[];
  initial: SearchPhotos | null;
}) {
  const [list, setList] = useState<SearchPhotos | null>(initial);
  const tagKey = tagIds.join(',');
  useEffect(() => {
    if (initial) return;
    let live = true;
    setList(null);
    const page = { page: 1, pageSize: SHOWN };
    const asked = keyword
      ? call('GET photo/search', { keyword, ...page })
      : call('POST photo/search/tag', { tagId: tagIds, ...page });
    asked.then(
      (answer) => live && setList(answer),
      () => live && setList(null),
    );
    return () => {
      live = false;
    };
  }, [keyword, tagKey]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!list?.photos.length) return null;
  return (
    <section className="photo-row" data-list="search-photos" aria-labelledby="search-photos-title">
      <div className="list-heading">
        <h2 id="search-photos-title">{t('photo.searchResults')}</h2>
        <span className="list-count">{t('photo.count', { count: list.photosCount })}</span>
        {list.photosCount > SHOWN && <a href={localizePath('/photo', locale)}>{t('photo.more')}</a>}
      </div>
      <PhotoTiles photos={list.photos} locale={locale} t={t} />
    </section>
  );
}

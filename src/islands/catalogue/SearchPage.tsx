import { useEffect, useRef, useState, type FormEvent } from 'react';
import PhotoSearchResults from '../photo/PhotoSearchResults.tsx';
import { getTags, searchTags, searchVideos, searchVideosByTag } from '../../lib/api/index.ts';
import type { Tag, VideoThumb } from '../../lib/api/contracts/video.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';
import TrackResults from '../audio/TrackResults.tsx';
import { DEFAULT_PAGE_SIZE } from '../../lib/catalogue/format.ts';
import {
  hasSearchQuery,
  MAX_SEARCH_TAGS,
  trackQueryOf,
  type SearchInitial,
  type SearchQuery,
} from '../../lib/catalogue/search-query.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { Pager, VideoCard, VideoGrid } from '../../components/VideoList.tsx';
import { cardLoading } from '../../lib/catalogue/poster.ts';

const SUGGEST_DELAY_MS = 250;

type Results =
  | Exclude<SearchInitial, { state: 'done' }>
  | { state: 'loading' }
  | { state: 'done'; videosCount: number; videosCountEstimated?: true; videos: VideoThumb[] };

/**
 * /search: keyword search (video/search) and tag search (suggestions from video/tag/search in the
 * viewer's language; the chosen tags search video/search/tag). The page renders the first results
 * on the server and hands them in as `initial` (no call on load); every new query is a new
 * address (a new page), and the island asks the API only to try a failed search again.
 */
export default function SearchPage({
  locale,
  messages,
  query,
  initial,
}: {
  locale: Locale;
  messages: Messages;
  query: SearchQuery;
  initial: SearchInitial;
}) {
  const t = useIslandTranslation(locale, messages);
  const [keywordInput, setKeywordInput] = useState(query.keyword);
  const [results, setResults] = useState<Results>(initial);
  const [chosenTags, setChosenTags] = useState<Tag[]>(initial.state === 'done' ? initial.tags : []);
  const [tagInput, setTagInput] = useState('');
  const [suggestions, setSuggestions] = useState<Tag[] | null>(null);
  const [attempt, setAttempt] = useState(0);
  const base = localizePath('/search', locale);

  // Trying again after a failure (attempt > 0): the page had nothing to hand in.
  useEffect(() => {
    if (!attempt || !hasSearchQuery(query)) return;
    let live = true;
    setResults({ state: 'loading' });
    const paging = { page: query.page, pageSize: query.pageSize };
    const call = query.keyword ? searchVideos(query.keyword, paging) : searchVideosByTag(query.tagIds, paging);
    void call.then((r) => {
      if (live)
        setResults(
          r.success
            ? {
                state: 'done',
                videosCount: r.videosCount,
                videosCountEstimated: r.videosCountEstimated,
                videos: r.videos,
              }
            : { state: 'error' },
        );
    });
    if (!query.keyword)
      void getTags(query.tagIds).then(
        (r) =>
          live &&
          setChosenTags(
            query.tagIds.map((id) => r.result.find((tag) => tag.tagId === id)).filter((tag): tag is Tag => !!tag),
          ),
      );
    return () => {
      live = false;
    };
  }, [query, attempt]);

  // Tag suggestions, debounced; an answer to an older input is dropped.
  const latestInput = useRef('');
  useEffect(() => {
    const name = tagInput.trim();
    latestInput.current = name;
    if (!name) {
      setSuggestions(null);
      return;
    }
    const timer = setTimeout(() => {
      searchTags(name).then(
        (r) => {
          if (latestInput.current === name) setSuggestions(r.result);
        },
        () => setSuggestions([]),
      );
    }, SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [tagInput]);

  const go = (params: Record<string, string>) => location.assign(`${base}?${new URLSearchParams(params)}`);
  const submitKeyword = (e: FormEvent) => {
    e.preventDefault();
    if (keywordInput.trim()) go({ keyword: keywordInput.trim() });
  };
  const goTags = (ids: number[]) => (ids.length ? go({ tag: ids.join(',') }) : location.assign(base));
  const currentTagIds = query.keyword ? [] : query.tagIds;
  const chooseTag = (tag: Tag) => goTags([...new Set([...currentTagIds, tag.tagId])].slice(0, MAX_SEARCH_TAGS));
  const pageAddress = `${base}?${new URLSearchParams(query.keyword ? { keyword: query.keyword } : { tag: query.tagIds.join(',') })}`;
  const hasQuery = hasSearchQuery(query);
  const trackQuery = trackQueryOf(query);

  return (
    <div className="search-page">
      <section className="card search-forms">
        <form role="search" className="search-row" onSubmit={submitKeyword}>
          <label className="field">
            <span className="field-label">{t('catalogue.search.keywordLabel')}</span>
            <input
              type="search"
              name="keyword"
              value={keywordInput}
              maxLength={100}
              onChange={(e) => setKeywordInput(e.target.value)}
              placeholder={t('catalogue.search.keywordPlaceholder')}
              data-search-keyword
            />
          </label>
          <button type="submit" className="button">
            {t('catalogue.search.submit')}
          </button>
        </form>
        <div className="field tag-picker">
          <label className="field-label" htmlFor="tag-search-input">
            {t('catalogue.search.tagLabel')}
          </label>
          {chosenTags.length > 0 && currentTagIds.length > 0 && (
            <ul className="chip-row" data-chosen-tags>
              {chosenTags.map((tag) => (
                <li key={tag.tagId}>
                  <span className="chip" aria-pressed="true">
                    {tagDisplayName(tag, locale)}
                    <button
                      type="button"
                      className="chip-remove"
                      aria-label={t('catalogue.search.removeTag', { name: tagDisplayName(tag, locale) })}
                      onClick={() => goTags(currentTagIds.filter((id) => id !== tag.tagId))}
                    >
                      ×
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          )}
          <input
            id="tag-search-input"
            type="search"
            value={tagInput}
            maxLength={30}
            autoComplete="off"
            onChange={(e) => setTagInput(e.target.value)}
            placeholder={t('catalogue.search.tagPlaceholder')}
            role="combobox"
            aria-expanded={!!suggestions?.length}
            aria-controls="tag-suggestions"
            data-tag-input
          />
          {suggestions &&
            (suggestions.length ? (
              <ul id="tag-suggestions" className="chip-row tag-suggestions" role="listbox">
                {suggestions.map((tag) => (
                  <li key={tag.tagId} role="option" aria-selected="false">
                    <button type="button" className="chip" onClick={() => chooseTag(tag)} data-tag-id={tag.tagId}>
                      # {tagDisplayName(tag, locale)}
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="field-hint" data-state="no-tags">
                {t('catalogue.search.noTags')}
              </p>
            ))}
        </div>
      </section>

      {!hasQuery ? (
        <p className="card list-empty" data-state="prompt">
          {t('catalogue.search.prompt')}
        </p>
      ) : results.state === 'invalid' ? (
        // The API's own answer to this query: its message and the fields at fault.
        <div className="card list-error" role="alert" data-state="invalid">
          <p>{results.message}</p>
          <ul>
            {results.issues.map((issue, index) => (
              <li key={index}>
                <code>{issue.path}</code>
                {`: ${issue.message}`}
              </li>
            ))}
          </ul>
        </div>
      ) : results.state === 'error' ? (
        <div className="card list-error" role="alert" data-state="error">
          <p>{t('catalogue.search.failed')}</p>
          <button type="button" className="button secondary" onClick={() => setAttempt((n) => n + 1)}>
            {t('catalogue.retry')}
          </button>
        </div>
      ) : results.state === 'done' ? (
        <>
          {trackQuery && (
            <TrackResults
              locale={locale}
              t={t}
              query={trackQuery}
              initial={initial.state === 'done' ? initial.tracks : null}
            />
          )}
          <section data-list="search" aria-live="polite">
            <div className="list-heading">
              <h2>
                {query.keyword
                  ? t('catalogue.search.resultsFor', { keyword: query.keyword })
                  : t('catalogue.search.resultsForTags')}
              </h2>
              <span className="list-count" data-results-count={results.videosCount}>
                {t(results.videosCountEstimated ? 'catalogue.countAbout' : 'catalogue.count', {
                  count: results.videosCount,
                })}
              </span>
            </div>
            {results.videos.length ? (
              <VideoGrid>
                {results.videos.map((video, index) => (
                  <li key={video.videoId}>
                    <VideoCard video={video} locale={locale} t={t} loading={cardLoading(index)} />
                  </li>
                ))}
              </VideoGrid>
            ) : (
              <p className="card list-empty" data-state="empty">
                {t('catalogue.search.empty')}
              </p>
            )}
            <Pager
              t={t}
              total={results.videosCount}
              page={query.page}
              pageSize={query.pageSize}
              href={query.pageSize === DEFAULT_PAGE_SIZE ? pageAddress : `${pageAddress}&pageSize=${query.pageSize}`}
            />
          </section>
        </>
      ) : (
        <p className="card list-empty" aria-busy="true">
          {t('catalogue.search.loading')}
        </p>
      )}
      {hasQuery && results.state !== 'invalid' && (
        <PhotoSearchResults
          locale={locale}
          t={t}
          keyword={query.keyword}
          tagIds={query.keyword ? [] : query.tagIds}
          initial={initial.state === 'done' ? initial.photos : null}
        />
      )}
    </div>
  );
}

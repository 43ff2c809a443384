import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { TFunction } from 'i18next';
import { createTag, searchTags, HttpError } from '../../lib/api/index.ts';
import {
  MAX_TAGS_PER_VIDEO,
  TAG_LANGUAGES,
  TAG_NAME_MAX,
  type TagLanguage,
} from '../../lib/api/contracts/video.constants.ts';
import type { ApiErrorBody } from '../../lib/api/errors.ts';
import type { Tag } from '../../lib/api/contracts/video.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { useReportPending } from './pending-work.tsx';

const SEARCH_DELAY_MS = 250;
/** A new tag is named in the page's language ('other' for the key-display mode). */
const tagLanguageOf = (locale: Locale): TagLanguage =>
  (TAG_LANGUAGES as readonly string[]).includes(locale) ? (locale as TagLanguage) : 'other';

/**
 * Type to search existing tags and pick them, or create a new one in the page's language. Enter
 * adds the highlighted suggestion (arrow keys move it), else the tag named exactly so, else
 * creates the typed tag. A name typed and not added holds the form back, saying so.
 */
export default function TagPicker({
  locale,
  t,
  tags,
  onChange,
  invalid,
}: {
  locale: Locale;
  t: TFunction;
  tags: Tag[];
  onChange: (tags: Tag[]) => void;
  invalid?: string;
}) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Tag[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  /** The suggestion Enter adds (-1: none, Enter adds or creates the typed name). */
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const name = query.trim();
  const full = tags.length >= MAX_TAGS_PER_VIDEO;
  useReportPending(
    `tags${listId}`,
    name && !full ? { message: t('upload.tagNotAdded', { name }), focus: () => input.current?.focus() } : null,
  );

  useEffect(() => {
    setActive(-1);
    if (!name) return setFound(null);
    const timer = setTimeout(() => {
      searchTags(name).then(
        (r) => setFound(r.result),
        () => setFound([]),
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [name]);

  const pick = (tag: Tag) => {
    if (!full && !tags.some((x) => x.tagId === tag.tagId)) onChange([...tags, tag]);
    setQuery('');
    setFound(null);
    setError('');
    setActive(-1);
  };
  const exact = found?.find((tag) =>
    tag.tagNameList.some((g) => g.tagName.some((n) => n.name.toLocaleLowerCase() === name.toLocaleLowerCase())),
  );
  const create = async () => {
    if (busy || !name) return;
    setBusy(true);
    setError('');
    try {
      const lang = tagLanguageOf(locale);
      const tagNameList = [{ lang, tagName: [{ name, isDefault: true, isOriginalTagName: true }] }];
      const { tagId } = await createTag({ tagNameList });
      pick({ tagId, tagNameList });
    } catch (e) {
      const body =
        e instanceof HttpError ? (e.body as (Partial<ApiErrorBody> & { tagId?: number }) | undefined) : undefined;
      // Named so already (created meanwhile, or typed faster than the search answered): that tag is the one meant.
      const lang = tagLanguageOf(locale);
      if (body?.code === 'TAG_EXISTS' && typeof body.tagId === 'number')
        pick({
          tagId: body.tagId,
          tagNameList: [{ lang, tagName: [{ name, isDefault: true, isOriginalTagName: true }] }],
        });
      else setError(body?.message ?? t('api.internal'));
    } finally {
      setBusy(false);
    }
  };
  const options = name && found ? found : [];
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && options.length) {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      // Cycles through the suggestions and back to none (the typed name itself).
      setActive((now) => ((now + 1 + step + options.length + 1) % (options.length + 1)) - 1);
      return;
    }
    if (e.key === 'Escape' && active >= 0) {
      e.preventDefault();
      setActive(-1);
      return;
    }
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    e.preventDefault();
    if (!name || full) return;
    const highlighted = options[active];
    if (highlighted) pick(highlighted);
    else if (exact) pick(exact);
    else void create();
  };

  return (
    <div className="field tag-picker" data-tag-picker>
      <span className="field-label">{t('upload.tags')}</span>
      {tags.length > 0 && (
        <ul className="user-tags" data-picked-tags>
          {tags.map((tag) => {
            const label = tagDisplayName(tag, locale);
            return (
              <li key={tag.tagId} className="tag-chip">
                {label}{' '}
                <button
                  type="button"
                  className="link-button"
                  aria-label={t('upload.removeTag', { tag: label })}
                  onClick={() => onChange(tags.filter((x) => x.tagId !== tag.tagId))}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <input
        name="tagSearch"
        ref={input}
        role="combobox"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={options[active] ? `${listId}-${active}` : undefined}
        value={query}
        maxLength={TAG_NAME_MAX}
        disabled={full}
        autoComplete="off"
        aria-invalid={invalid ? true : undefined}
        placeholder={t('upload.tagPlaceholder')}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKey}
      />
      {name && found && (
        <ul className="tag-suggestions" role="listbox" id={listId} aria-label={t('upload.tags')}>
          {found.map((tag, i) => (
            <li key={tag.tagId}>
              <button
                type="button"
                role="option"
                id={`${listId}-${i}`}
                aria-selected={i === active}
                className={i === active ? 'tag-option active' : 'tag-option'}
                tabIndex={-1}
                onClick={() => pick(tag)}
                data-tag-option
              >
                {tagDisplayName(tag, locale)}
              </button>
            </li>
          ))}
          {!exact && (
            <li>
              <button
                type="button"
                className="tag-option create"
                disabled={busy}
                onClick={() => void create()}
                data-create-tag
              >
                {t('upload.createTag', { name })}
              </button>
            </li>
          )}
        </ul>
      )}
      <span className="field-hint">{t('upload.tagsHint', { max: MAX_TAGS_PER_VIDEO })}</span>
      {(error || invalid) && (
        <span className="auth-error" role="alert">
          {error || invalid}
        </span>
      )}
    </div>
  );
}

import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { changeBlockList, getBlockList } from '../../lib/api/calls/block.ts';
import { searchTags } from '../../lib/api/calls/video.ts';
import type { BlockListItem } from '../../lib/api/contracts/block.ts';
import type { Tag } from '../../lib/api/contracts/video.ts';
import {
  BLOCK_KEYWORD_MAX,
  BLOCK_LIST_LIMITS,
  BLOCK_REGEX_MAX,
  type BlockListType,
} from '../../lib/validation/block-lists.ts';
import { loadBlockLists } from '../../lib/stores/block-lists.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useAction } from './use-action.ts';
import FormFields from './FormFields.tsx';
import './block-and-hide.css';

const TABS: BlockListType[] = ['block', 'hide', 'tag', 'keyword', 'regex'];
const PAGE_SIZE = 50;

/**
 * Settings > Block and hide: the viewer's five lists, each listed, added to and removed from;
 * the server decides (limits, unsafe expressions) and its message is shown as it comes.
 */
export default function BlockAndHide({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [tab, setTab] = useState<BlockListType>('block');
  const [items, setItems] = useState<BlockListItem[] | null>(null);
  const [count, setCount] = useState(0);
  const [page, setPage] = useState(1);
  const [input, setInput] = useState('');
  const [tagResults, setTagResults] = useState<Tag[] | null>(null);
  const { busy, ready, error, run, setError } = useAction(t('api.internal'));
  const date = (ms: number) => new Date(ms).toLocaleDateString(LOCALE_INFO[locale].htmlLang);
  const limit = BLOCK_LIST_LIMITS[tab];
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));

  const load = useCallback(async () => {
    const answer = await getBlockList(tab, page, PAGE_SIZE);
    setItems(answer.result);
    setCount(answer.blocklistCount);
  }, [tab, page]);

  useEffect(() => {
    if (self.isLogined) void run(load);
  }, [self.isLogined, load]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!self.isLogined)
    return (
      <div className="card">
        <p>{t('validation.notLoggedIn')}</p>
      </div>
    );

  const switchTab = (next: BlockListType) => {
    setTab(next);
    setPage(1);
    setItems(null);
    setInput('');
    setTagResults(null);
    setError('');
  };

  /** Adds or removes, then refreshes this list and the store the player and comments read. */
  const change = (value: string, add: boolean) =>
    run(async () => {
      const { added } = await changeBlockList(tab, value, add);
      showToast({
        message: t(add ? (added ? 'blockLists.added' : 'blockLists.alreadyThere') : 'blockLists.removed'),
        severity: 'success',
      });
      if (add) setInput('');
      await load();
      void loadBlockLists();
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = input.trim();
    if (!value) return;
    if (tab === 'tag') {
      void run(async () => setTagResults((await searchTags(value)).result));
      return;
    }
    void change(value, true);
  };

  const field = {
    block: { label: t('blockLists.uidLabel'), inputMode: 'numeric' as const, pattern: '[0-9]*', maxLength: 16 },
    hide: { label: t('blockLists.uidLabel'), inputMode: 'numeric' as const, pattern: '[0-9]*', maxLength: 16 },
    tag: { label: t('blockLists.tagLabel'), maxLength: 30 },
    keyword: { label: t('blockLists.keywordLabel', { max: BLOCK_KEYWORD_MAX }), maxLength: BLOCK_KEYWORD_MAX },
    regex: { label: t('blockLists.regexLabel', { max: BLOCK_REGEX_MAX }), maxLength: BLOCK_REGEX_MAX },
  }[tab];

  return (
    <section className="card block-lists" data-block-lists>
      <p className="block-intro">{t('blockLists.intro')}</p>
      <div className="block-tabs" role="tablist" aria-label={t('blockLists.lists')}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`block-tab-${name}`}
            aria-controls="block-panel"
            aria-selected={tab === name}
            className="block-tab"
            onClick={() => switchTab(name)}
            data-block-tab={name}
          >
            {t(`blockLists.tabs.${name}`)}
          </button>
        ))}
      </div>

      <div id="block-panel" role="tabpanel" aria-labelledby={`block-tab-${tab}`} className="block-panel">
        <p className="field-hint">{t(`blockLists.explain.${tab}`)}</p>
        <form className="block-add" onSubmit={submit}>
          <FormFields ready={ready}>
            <label className="field">
              <span className="field-label">{field.label}</span>
              <input
                name="value"
                value={input}
                onChange={(e) => setInput(e.target.value)}
                autoComplete="off"
                spellCheck={false}
                required
                inputMode={'inputMode' in field ? field.inputMode : undefined}
                pattern={'pattern' in field ? field.pattern : undefined}
                maxLength={field.maxLength}
              />
            </label>
            <button type="submit" className="button" disabled={busy || count >= limit}>
              {t(tab === 'tag' ? 'blockLists.findTag' : 'blockLists.add')}
            </button>
          </FormFields>
        </form>
        <p className="block-usage" data-block-usage>
          {t('blockLists.usage', { count, limit })}
        </p>
        {error && (
          <p className="auth-error" role="alert" data-block-error>
            {error}
          </p>
        )}

        {tab === 'tag' && tagResults && (
          <div className="block-tag-results" aria-live="polite">
            {tagResults.length === 0 ? (
              <p className="field-hint">{t('blockLists.noTagFound')}</p>
            ) : (
              tagResults.map((tag) => (
                <button
                  key={tag.tagId}
                  type="button"
                  className="tag-chip block-tag-choice"
                  disabled={busy}
                  onClick={() => {
                    setTagResults(null);
                    void change(String(tag.tagId), true);
                  }}
                >
                  + {tagDisplayName(tag, locale)}
                </button>
              ))
            )}
          </div>
        )}

        {items?.length === 0 && (
          <p className="block-empty" data-block-empty>
            {t('blockLists.empty')}
          </p>
        )}
        <ul className="block-items">
          {items?.map((item) => (
            <li key={`${item.type}:${item.value}`} className="block-item" data-block-item={item.value}>
              <div className="block-item-main">
                {item.uid !== null ? (
                  <>
                    <span className="block-avatar" aria-hidden="true">
                      {item.avatar ? (
                        <img src={item.avatar} alt="" width="36" height="36" />
                      ) : (
                        [...(item.userNickname || item.username || '?')][0]
                      )}
                    </span>
                    <span className="block-item-text">
                      <a href={localizePath(`/user/${item.uid}`, locale)}>{item.userNickname || item.username}</a>
                      <span className="user-meta">
                        @{item.username} · UID {item.uid}
                      </span>
                    </span>
                  </>
                ) : item.tag ? (
                  <span className="tag-chip">{tagDisplayName(item.tag, locale)}</span>
                ) : (
                  <code className="block-value">{item.value}</code>
                )}
              </div>
              <span className="user-meta block-date">{date(item.createDateTime)}</span>
              <button
                type="button"
                className="button secondary"
                disabled={busy}
                onClick={() => void change(item.value, false)}
                aria-label={`${t('blockLists.remove')}: ${item.userNickname || item.username || (item.tag ? tagDisplayName(item.tag, locale) : item.value)}`}
              >
                {t('blockLists.remove')}
              </button>
            </li>
          ))}
        </ul>
        {pages > 1 && (
          <nav className="pager">
            <button type="button" className="button secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('blockLists.previous')}
            </button>
            <span>
              {page} / {pages}
            </span>
            <button
              type="button"
              className="button secondary"
              disabled={page >= pages}
              onClick={() => setPage(page + 1)}
            >
              {t('blockLists.next')}
            </button>
          </nav>
        )}
      </div>
    </section>
  );
}

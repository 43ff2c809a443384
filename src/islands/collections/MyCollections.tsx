import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { TFunction } from 'i18next';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  removeFromCollection,
  reorderCollection,
  updateCollection,
} from '../../lib/api/calls/collection.ts';
import { serverMessage } from '../../lib/api/http.ts';
import type { CollectionSummary } from '../../lib/api/contracts/collection.ts';
import {
  COLLECTION_DESCRIPTION_MAX,
  COLLECTION_TITLE_MAX,
  COLLECTION_VIDEOS_MAX,
  type CollectionVisibility,
} from '../../lib/api/contracts/collection.constants.ts';
import { itemSummary } from '../../lib/catalogue/media-cards.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { LoginPrompt } from '../auth/LoginPrompt.tsx';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { CollectionCard } from './CollectionCard.tsx';

const PAGE = 100;
const failedToast = (t: TFunction, error: unknown) =>
  showToast({ message: serverMessage(error) ?? t('collections.failed'), severity: 'error' });

interface Fields {
  title: string;
  description: string;
  visibility: CollectionVisibility;
}

/** Title, description and visibility: the create form and each collection's edit form. */
function CollectionForm({
  t,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  idPrefix,
}: {
  t: TFunction;
  initial: Fields;
  submitLabel: string;
  idPrefix: string;
  onSubmit: (fields: Fields) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [fields, setFields] = useState(initial);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    if (await onSubmit(fields)) setFields(initial);
    setBusy(false);
  };
  return (
    <form className="collection-form" onSubmit={(e) => void submit(e)} data-collection-form={idPrefix}>
      <label className="field">
        <span className="field-label">{t('collections.titleLabel')}</span>
        <input
          value={fields.title}
          maxLength={COLLECTION_TITLE_MAX}
          required
          onChange={(e) => setFields({ ...fields, title: e.target.value })}
          data-field="title"
        />
      </label>
      <label className="field">
        <span className="field-label">{t('collections.descriptionLabel')}</span>
        <textarea
          value={fields.description}
          maxLength={COLLECTION_DESCRIPTION_MAX}
          rows={2}
          onChange={(e) => setFields({ ...fields, description: e.target.value })}
          data-field="description"
        />
      </label>
      <fieldset className="collection-visibility">
        <legend className="field-label">{t('collections.visibilityLabel')}</legend>
        {(['private', 'public'] as const).map((v) => (
          <label key={v}>
            <input
              type="radio"
              name={`${idPrefix}-visibility`}
              value={v}
              checked={fields.visibility === v}
              onChange={() => setFields({ ...fields, visibility: v })}
            />{' '}
            {t(`collections.${v}`)}
          </label>
        ))}
      </fieldset>
      <div className="collection-form-actions">
        <button type="submit" className="button" disabled={busy || !fields.title.trim()}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button secondary" onClick={onCancel}>
            {t('collections.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

type Entry = ReturnType<typeof itemSummary>;
const isCover = (collection: CollectionSummary, entry: Entry) =>
  entry.type === 'video' && collection.coverVideoId === entry.id;

/**
 * A collection's videos, tracks and photo posts in order, to rearrange: drag a row, or focus it
 * and press Alt+↑/↓ (or its buttons); each move is saved at once and announced. Also: take an
 * item out, choose a video as the cover.
 */
function VideoOrder({
  t,
  collection,
  onChanged,
}: {
  t: TFunction;
  collection: CollectionSummary;
  onChanged: () => void;
}) {
  const [videos, setVideos] = useState<Entry[] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const dragged = useRef<number | null>(null);
  const rows = useRef(new Map<string, HTMLLIElement>());
  const id = collection.collectionId;

  useEffect(() => {
    let live = true;
    (async () => {
      const all: Entry[] = [];
      for (let page = 1; page <= COLLECTION_VIDEOS_MAX / PAGE; page += 1) {
        const answer = await getCollection(id, page, PAGE);
        all.push(...answer.items.map(itemSummary));
        if (answer.items.length < PAGE) break;
      }
      if (live) setVideos(all);
    })().catch((error) => failedToast(t, error));
    return () => {
      live = false;
    };
  }, [id, t]);

  const move = async (from: number, to: number) => {
    if (!videos || to < 0 || to >= videos.length || from === to) return;
    const before = videos;
    const next = [...videos];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    setVideos(next);
    setAnnouncement(t('collections.moved', { title: moved.title, position: to + 1 }));
    requestAnimationFrame(() => rows.current.get(moved.key)?.focus());
    try {
      await reorderCollection(
        id,
        next.map((v) => ({ mediaType: v.type, id: v.id })),
      );
      onChanged();
    } catch (error) {
      setVideos(before);
      failedToast(t, error);
    }
  };

  const remove = async (video: Entry) => {
    try {
      await removeFromCollection(id, video.id, video.type);
      setVideos((shown) => shown?.filter((v) => v.key !== video.key) ?? null);
      showToast({ message: t('collections.removed', { title: collection.title }), severity: 'success' });
      onChanged();
    } catch (error) {
      failedToast(t, error);
    }
  };

  const setCover = async (video: Entry) => {
    try {
      await updateCollection({ collectionId: id, coverVideoId: video.id });
      showToast({ message: t('collections.saved'), severity: 'success' });
      onChanged();
    } catch (error) {
      failedToast(t, error);
    }
  };

  const onKey = (event: KeyboardEvent, index: number) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || event.target !== event.currentTarget)
      return;
    event.preventDefault();
    void move(index, index + (event.key === 'ArrowUp' ? -1 : 1));
  };

  if (!videos) return <p aria-busy="true">…</p>;
  if (!videos.length) return <p className="collection-order-empty">{t('collections.empty')}</p>;
  return (
    <div className="collection-order" data-collection-order={id}>
      <p className="field-hint" id={`order-hint-${id}`}>
        {t('collections.reorderHint')}
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <ol className="collection-order-list" aria-describedby={`order-hint-${id}`}>
        {videos.map((video, index) => (
          <li
            key={video.key}
            ref={(node) => {
              if (node) rows.current.set(video.key, node);
              else rows.current.delete(video.key);
            }}
            tabIndex={0}
            draggable
            data-order-video={video.id}
            data-order-kind={video.type}
            aria-label={`${index + 1}. ${video.title}`}
            className={isCover(collection, video) ? 'is-cover' : undefined}
            onKeyDown={(e) => onKey(e, index)}
            onDragStart={(e) => {
              dragged.current = index;
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', video.key);
            }}
            onDragOver={(e) => {
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
            }}
            onDrop={(e) => {
              e.preventDefault();
              if (dragged.current !== null) void move(dragged.current, index);
              dragged.current = null;
            }}
          >
            <span className="collection-order-handle" aria-hidden="true">
              ⋮⋮
            </span>
            <span className="collection-order-number" aria-hidden="true">
              {index + 1}
            </span>
            {video.image ? (
              <img src={video.image} alt="" width={64} height={36} loading="lazy" />
            ) : (
              <span className="collection-order-thumb" aria-hidden="true" />
            )}
            <span className="collection-order-title">{video.title}</span>
            <span className="collection-order-actions">
              <button
                type="button"
                className="icon-button"
                disabled={index === 0}
                onClick={() => void move(index, index - 1)}
                aria-label={t('collections.moveUp', { title: video.title })}
                data-move-up
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-button"
                disabled={index === videos.length - 1}
                onClick={() => void move(index, index + 1)}
                aria-label={t('collections.moveDown', { title: video.title })}
                data-move-down
              >
                ↓
              </button>
              {video.type === 'video' && (
                <button
                  type="button"
                  className="icon-button"
                  aria-pressed={isCover(collection, video)}
                  onClick={() => void setCover(video)}
                  aria-label={t('collections.setCover', { title: video.title })}
                  title={t('collections.coverBadge')}
                >
                  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
                    <path
                      fill="currentColor"
                      d="M19 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2Zm0 16H5V5h14v14Zm-5.04-6.71-2.75 3.54-1.96-2.36L6.5 17h11l-3.54-4.71Z"
                    />
                  </svg>
                </button>
              )}
              <button
                type="button"
                className="icon-button"
                onClick={() => void remove(video)}
                aria-label={t('collections.remove', { title: video.title })}
                data-remove-video
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** /collections: the member's own collections, to create, edit, delete (after a confirmation) and rearrange. */
export default function MyCollections({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const uid = self.userInfo?.uid;
  const [collections, setCollections] = useState<CollectionSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [ordering, setOrdering] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<CollectionSummary | null>(null);
  const confirmDialog = useRef<HTMLDialogElement>(null);

  const load = useCallback(async () => {
    if (!uid) return;
    try {
      setCollections((await listCollections(uid)).collections);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [uid]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (confirming) confirmDialog.current?.showModal();
  }, [confirming]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card list-empty" aria-busy="true">
        …
      </div>
    );
  if (!uid)
    return (
      <LoginPrompt
        message={t('collections.guest')}
        action={t('collections.login')}
        state={{ 'data-collections-state': 'guest' }}
      />
    );

  const create = async (fields: Fields) => {
    try {
      const { collection } = await createCollection(fields);
      setCollections((shown) => [collection, ...(shown ?? [])]);
      return true;
    } catch (error) {
      failedToast(t, error);
      return false;
    }
  };
  const save = async (collectionId: number, fields: Fields) => {
    try {
      const { collection } = await updateCollection({ collectionId, ...fields });
      setCollections((shown) => shown?.map((c) => (c.collectionId === collectionId ? collection : c)) ?? null);
      setEditing(null);
      showToast({ message: t('collections.saved'), severity: 'success' });
      return true;
    } catch (error) {
      failedToast(t, error);
      return false;
    }
  };
  const remove = async (collection: CollectionSummary) => {
    confirmDialog.current?.close();
    setConfirming(null);
    try {
      await deleteCollection(collection.collectionId);
      setCollections((shown) => shown?.filter((c) => c.collectionId !== collection.collectionId) ?? null);
      showToast({ message: t('collections.deleted'), severity: 'success' });
    } catch (error) {
      failedToast(t, error);
    }
  };

  return (
    <div className="collections-ui my-collections" data-collections-state={collections ? 'ready' : 'loading'}>
      <details className="card collection-create" data-collection-create>
        <summary>{t('collections.newCollection')}</summary>
        <CollectionForm
          t={t}
          idPrefix="new"
          initial={{ title: '', description: '', visibility: 'private' }}
          submitLabel={t('collections.create')}
          onSubmit={create}
        />
      </details>
      {failed && (
        <p className="card list-empty list-error" role="alert">
          {t('collections.loadFailed')}{' '}
          <button type="button" className="button secondary" onClick={() => void load()}>
            {t('collections.retry')}
          </button>
        </p>
      )}
      {collections && !collections.length && (
        <p className="card list-empty" data-collections-empty>
          {t('collections.mineEmpty')}
        </p>
      )}
      {collections && collections.length > 0 && (
        <ul className="collection-grid">
          {collections.map((c) => (
            <li
              key={c.collectionId}
              className={ordering === c.collectionId || editing === c.collectionId ? 'is-open' : undefined}
            >
              <CollectionCard collection={c} locale={locale} t={t}>
                {editing === c.collectionId ? (
                  <CollectionForm
                    t={t}
                    idPrefix={`edit-${c.collectionId}`}
                    initial={{ title: c.title, description: c.description, visibility: c.visibility }}
                    submitLabel={t('collections.save')}
                    onSubmit={(fields) => save(c.collectionId, fields)}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <div className="collection-actions">
                    <button
                      type="button"
                      className="button secondary"
                      onClick={() => setEditing(c.collectionId)}
                      data-collection-edit
                    >
                      {t('collections.edit')}
                    </button>
                    <button
                      type="button"
                      className="button secondary"
                      aria-expanded={ordering === c.collectionId}
                      onClick={() => setOrdering(ordering === c.collectionId ? null : c.collectionId)}
                      data-collection-order-toggle
                    >
                      {t('collections.manage')}
                    </button>
                    <button
                      type="button"
                      className="button secondary collection-delete"
                      onClick={() => setConfirming(c)}
                      data-collection-delete
                    >
                      {t('collections.delete')}
                    </button>
                  </div>
                )}
                {ordering === c.collectionId && <VideoOrder t={t} collection={c} onChanged={() => void load()} />}
              </CollectionCard>
            </li>
          ))}
        </ul>
      )}
      <dialog
        ref={confirmDialog}
        className="collection-dialog"
        role="alertdialog"
        aria-labelledby="collection-confirm-text"
        onClose={() => setConfirming(null)}
        data-collection-confirm
      >
        <div className="collection-dialog-card">
          <p id="collection-confirm-text">
            {confirming && t('collections.confirmDelete', { title: confirming.title })}
          </p>
          <div className="collection-form-actions">
            <button
              type="button"
              className="button danger"
              onClick={() => confirming && void remove(confirming)}
              data-collection-confirm-delete
            >
              {t('collections.delete')}
            </button>
            <button
              type="button"
              className="button secondary"
              autoFocus
              onClick={() => {
                confirmDialog.current?.close();
                setConfirming(null);
              }}
            >
              {t('collections.cancel')}
            </button>
          </div>
        </div>
      </dialog>
    </div>
  );
}

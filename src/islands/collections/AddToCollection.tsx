import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  addToCollection,
  collectionsContaining,
  createCollection,
  listCollections,
  removeFromCollection,
} from '../../lib/api/calls/collection.ts';
import type { CollectionSummary } from '../../lib/api/contracts/collection.ts';
import { COLLECTION_TITLE_MAX, type CollectionVisibility } from '../../lib/api/contracts/collection.constants.ts';
import type { MediaType } from '../../lib/api/contracts/common.constants.ts';
import { can } from '../../lib/policy/policy.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { openAuthDialog } from '../auth/open-auth-dialog.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { serverMessage } from '../../lib/api/http.ts';
import './collections.css';

/** videoId: the video's id, or the track's or photo post's (mediaType). */
interface Props {
  locale: Locale;
  messages: Messages;
  videoId: number;
  mediaType?: MediaType;
}

/**
 * "Add to collection" on the video, track and photo post pages: a dialog listing the member's
 * collections, each with a box ticked when it holds this item (ticking adds, unticking removes,
 * at once and undone with a toast when refused), and a form to create one with this item in it.
 * Guests get the login dialog.
 */
export default function AddToCollection({ locale, messages, videoId, mediaType = 'video' }: Props) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const viewer = self.userInfo;
  const dialog = useRef<HTMLDialogElement>(null);
  const [collections, setCollections] = useState<CollectionSummary[] | null>(null);
  const [holding, setHolding] = useState<Set<number>>(new Set());
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<number | 'new' | null>(null);
  const [title, setTitle] = useState('');
  const [visibility, setVisibility] = useState<CollectionVisibility>('private');

  const load = async (uid: number) => {
    setFailed(false);
    try {
      const [list, containing] = await Promise.all([listCollections(uid), collectionsContaining(videoId, mediaType)]);
      setCollections(list.collections);
      setHolding(new Set(containing.collectionIds));
    } catch {
      setFailed(true);
    }
  };

  const open = () => {
    if (!self.isLogined || !viewer) return void openAuthDialog('login');
    dialog.current?.showModal();
    void load(viewer.uid);
  };

  // A member in good standing may add; a banned one may only take videos out (the policy says so).
  const mayEdit = !viewer || can(viewer, 'collection.edit', { ownerUid: viewer.uid });

  const toggle = async (collection: CollectionSummary) => {
    const had = holding.has(collection.collectionId);
    const next = new Set(holding);
    if (had) next.delete(collection.collectionId);
    else next.add(collection.collectionId);
    setHolding(next);
    setBusy(collection.collectionId);
    try {
      await (had ? removeFromCollection : addToCollection)(collection.collectionId, videoId, mediaType);
      showToast({
        message: t(had ? 'collections.removed' : 'collections.added', { title: collection.title }),
        severity: 'success',
      });
    } catch (error) {
      setHolding(holding);
      showToast({ message: serverMessage(error) ?? t('collections.failed'), severity: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) return;
    setBusy('new');
    try {
      const { collection } = await createCollection({ title, visibility, videoId, mediaType });
      setCollections((shown) => [collection, ...(shown ?? [])]);
      setHolding((held) => new Set([...held, collection.collectionId]));
      setTitle('');
      showToast({ message: t('collections.added', { title: collection.title }), severity: 'success' });
    } catch (error) {
      showToast({ message: serverMessage(error) ?? t('collections.failed'), severity: 'error' });
    } finally {
      setBusy(null);
    }
  };

  useEffect(() => {
    const node = dialog.current;
    // A click on the backdrop (the dialog element itself, outside its card) closes it.
    const onClick = (event: MouseEvent) => {
      if (event.target === node) node?.close();
    };
    node?.addEventListener('click', onClick);
    return () => node?.removeEventListener('click', onClick);
  }, []);

  return (
    <div className="collections-ui add-to-collection" data-add-to-collection>
      <button
        type="button"
        className="button secondary add-to-collection-button"
        onClick={open}
        aria-haspopup="dialog"
        data-add-to-collection-button
      >
        <span aria-hidden="true">★</span>
        {t('collections.add')}
      </button>
      <dialog
        ref={dialog}
        className="collection-dialog"
        aria-labelledby={`add-to-collection-${videoId}`}
        data-collection-dialog
      >
        <div className="collection-dialog-card">
          <header className="collection-dialog-head">
            <h2 id={`add-to-collection-${videoId}`}>{t('collections.dialogTitle')}</h2>
            <button
              type="button"
              className="icon-button"
              onClick={() => dialog.current?.close()}
              aria-label={t('collections.close')}
              data-collection-dialog-close
            >
              ✕
            </button>
          </header>
          {failed ? (
            <p className="list-error" role="alert">
              {t('collections.loadFailed')}{' '}
              <button type="button" className="button secondary" onClick={() => viewer && void load(viewer.uid)}>
                {t('collections.retry')}
              </button>
            </p>
          ) : collections === null ? (
            <p aria-busy="true">…</p>
          ) : collections.length === 0 ? (
            <p className="collection-dialog-empty">{t('collections.none')}</p>
          ) : (
            <ul className="collection-choices" data-collection-choices>
              {collections.map((c) => {
                const checked = holding.has(c.collectionId);
                return (
                  <li key={c.collectionId}>
                    <label>
                      <input
                        type="checkbox"
                        checked={checked}
                        disabled={busy !== null || (!checked && !mayEdit)}
                        onChange={() => void toggle(c)}
                        data-collection-choice={c.collectionId}
                      />
                      <span className="collection-choice-title">{c.title}</span>
                      <span className="collection-choice-meta">
                        {c.visibility === 'private' ? t('collections.private') : t('collections.public')} ·{' '}
                        {t('collections.videoCount', { count: c.videoCount })}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
          {mayEdit && (
            <form className="collection-new" onSubmit={(e) => void create(e)} data-collection-new>
              <h3>{t('collections.newCollection')}</h3>
              <label className="field">
                <span className="field-label">{t('collections.titleLabel')}</span>
                <input
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                  maxLength={COLLECTION_TITLE_MAX}
                  required
                  data-collection-new-title
                />
              </label>
              <fieldset className="collection-visibility">
                <legend className="field-label">{t('collections.visibilityLabel')}</legend>
                {(['private', 'public'] as const).map((v) => (
                  <label key={v}>
                    <input
                      type="radio"
                      name={`visibility-${videoId}`}
                      value={v}
                      checked={visibility === v}
                      onChange={() => setVisibility(v)}
                    />{' '}
                    {t(`collections.${v}`)}
                  </label>
                ))}
              </fieldset>
              <button
                type="submit"
                className="button"
                disabled={busy !== null || !title.trim()}
                data-collection-new-submit
              >
                {t('collections.create')}
              </button>
            </form>
          )}
        </div>
      </dialog>
    </div>
  );
}

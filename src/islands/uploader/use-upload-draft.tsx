import { useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { isBlankDraft, type DraftFields, type DraftKind } from '../../lib/upload/draft.ts';
import { deleteDraft, loadDraft, saveDraft } from '../../lib/upload/draft-store.ts';
import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';
import './draft-notice.css';

const SAVE_DELAY_MS = 400;

export interface UploadDraftState {
  /** The draft read back when the page opened (null: none, or discarded). */
  restored: { fields: DraftFields; savedAt: number } | null;
  /** The stored draft has been read (or there was none): the form may be filled and saved from now on. */
  loaded: boolean;
  /** Forgets the draft (the form resets itself). */
  discard: () => void;
  /** Forgets the draft once the upload is published. */
  clear: () => void;
}

/**
 * Keeps a form's draft in IndexedDB: reads it once the member is known, then writes `fields`
 * (null: nothing to keep yet) a moment after each change. A browser without IndexedDB (or a
 * private window refusing it) simply keeps no draft.
 */
export function useUploadDraft(uid: number | null, kind: DraftKind, fields: DraftFields | null): UploadDraftState {
  const [restored, setRestored] = useState<UploadDraftState['restored']>(null);
  const [loaded, setLoaded] = useState(false);
  const stopped = useRef(false);
  const text = fields && !isBlankDraft(fields) ? JSON.stringify(fields) : null;

  // Read once per member: read again later (the session store refreshing), it would bring back
  // this page's own saves over what was typed since.
  const readFor = useRef<number | null>(null);
  useEffect(() => {
    if (uid === null || readFor.current === uid) return;
    readFor.current = uid;
    loadDraft(uid, kind)
      .then(
        (draft) => {
          if (draft && !isBlankDraft(draft.fields)) setRestored({ fields: draft.fields, savedAt: draft.savedAt });
        },
        (error: unknown) => console.warn('upload drafts unavailable', error),
      )
      .finally(() => setLoaded(true));
  }, [uid, kind]);

  useEffect(() => {
    // Published: nothing more is kept until the form starts over empty.
    if (text === null) stopped.current = false;
    if (uid === null || !loaded || text === null || stopped.current) return;
    let saved = false;
    const save = () => {
      if (saved || stopped.current) return;
      saved = true;
      saveDraft(uid, kind, JSON.parse(text) as DraftFields).catch((error: unknown) =>
        console.warn('draft not saved', error),
      );
    };
    const timer = setTimeout(save, SAVE_DELAY_MS);
    // The tab closing (or hidden, as a phone's browser does before ending it) saves the last change at once.
    const now = () => {
      if (document.visibilityState === 'hidden') save();
    };
    addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', now);
    return () => {
      clearTimeout(timer);
      removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', now);
    };
  }, [uid, kind, loaded, text]);

  const forget = () => {
    setRestored(null);
    if (uid !== null) deleteDraft(uid, kind).catch((error: unknown) => console.warn('draft not deleted', error));
  };
  return {
    restored,
    loaded,
    discard: forget,
    clear: () => {
      stopped.current = true;
      forget();
    },
  };
}

/** The notice of a restored draft: when it was saved, what happens next, and a way to discard it. */
export function DraftNotice({
  t,
  locale,
  savedAt,
  message,
  onDiscard,
}: {
  t: TFunction;
  locale: Locale;
  savedAt: number;
  message: (time: string) => string;
  onDiscard: () => void;
}) {
  const time = new Date(savedAt).toLocaleString(LOCALE_INFO[locale].htmlLang, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <div className="card draft-notice" role="status" data-draft-notice>
      <p>{message(time)}</p>
      <button type="button" className="button secondary" onClick={onDiscard} data-draft-discard>
        {t('upload.draft.discard')}
      </button>
    </div>
  );
}

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { draftKey, mergeDraft, type DraftFields, type DraftKind, type UploadDraft } from './draft.ts';

/** The browser database of upload drafts (draft.ts). */
export const DRAFTS_DB = 'UploadDrafts';
export const DRAFTS_DB_VERSION = 1;
export const DRAFTS_STORE = 'drafts';

interface DraftsSchema extends DBSchema {
  drafts: { key: string; value: UploadDraft };
}

let opening: Promise<IDBPDatabase<DraftsSchema>> | null = null;

/** One connection per page, opened at the first use; dropped when another tab upgrades or the site's data is cleared. */
function database(): Promise<IDBPDatabase<DraftsSchema>> {
  opening ??= openDB<DraftsSchema>(DRAFTS_DB, DRAFTS_DB_VERSION, {
    upgrade(db) {
      db.createObjectStore(DRAFTS_STORE, { keyPath: 'key' });
    },
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
    terminated() {
      opening = null;
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

/** The member's draft of a form, or null. */
export async function loadDraft(uid: number, kind: DraftKind): Promise<UploadDraft | null> {
  return (await (await database()).get(DRAFTS_STORE, draftKey(uid, kind))) ?? null;
}

/**
 * Writes `changes` over the member's draft of a form, in one transaction (two parts of a form
 * saving at once both keep their fields). Answers the draft as written.
 */
export async function saveDraft(
  uid: number,
  kind: DraftKind,
  changes: DraftFields,
  now = Date.now(),
): Promise<UploadDraft> {
  const tx = (await database()).transaction(DRAFTS_STORE, 'readwrite');
  const key = draftKey(uid, kind);
  const previous = await tx.store.get(key);
  const draft: UploadDraft = { key, uid, kind, savedAt: now, fields: mergeDraft(previous?.fields, changes) };
  await tx.store.put(draft);
  await tx.done;
  return draft;
}

/** Forgets the member's draft of a form (discarded, or published). */
export async function deleteDraft(uid: number, kind: DraftKind): Promise<void> {
  await (await database()).delete(DRAFTS_STORE, draftKey(uid, kind));
}

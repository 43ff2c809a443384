/**
 * Drafts of the upload forms (video, audio, photo): what the member typed, kept in the browser
 * (draft-store.ts, IndexedDB) so that closing the tab loses nothing. Only the form's words and
 * choices are kept, never the files: tus resumes a file chosen again from its own fingerprint.
 */
export type DraftKind = 'video' | 'audio' | 'photo';

/** A form's fields as kept: plain JSON values (strings, booleans, tags, part titles). */
export type DraftFields = Record<string, unknown>;

export interface UploadDraft {
  /** `${uid}:${kind}`: one draft per member and form, so two accounts on one browser never mix. */
  key: string;
  uid: number;
  kind: DraftKind;
  /** When it was last written (ms since the epoch). */
  savedAt: number;
  fields: DraftFields;
}

export const draftKey = (uid: number, kind: DraftKind): string => `${uid}:${kind}`;

/** Nothing worth keeping: every string blank, every list empty, every flag off. */
export function isBlankDraft(fields: DraftFields): boolean {
  const blank = (value: unknown): boolean => {
    if (value === null || value === undefined || value === false) return true;
    if (typeof value === 'string') return value.trim() === '';
    if (Array.isArray(value)) return value.every(blank);
    if (typeof value === 'object') return Object.values(value).every(blank);
    return false;
  };
  return blank(fields);
}

/** A draft's fields with `changes` written over them (one level deep: each form writes its own fields). */
export function mergeDraft(previous: DraftFields | undefined, changes: DraftFields): DraftFields {
  return { ...previous, ...changes };
}

/** The title a restored part gets: the draft's title for that place, else the file's own default. */
export function restoredPartTitle(titles: unknown, index: number, fallback: string): string {
  const kept = Array.isArray(titles) ? titles[index] : undefined;
  return typeof kept === 'string' && kept.trim() ? kept : fallback;
}

/** A field read back from a draft, or `fallback` when it is missing or of another type (an older draft). */
export function draftValue<T>(fields: DraftFields | null | undefined, name: string, fallback: T): T {
  const value = fields?.[name];
  if (value === undefined || value === null) return fallback;
  if (fallback !== null && (Array.isArray(fallback) !== Array.isArray(value) || typeof value !== typeof fallback))
    return fallback;
  return value as T;
}

/**
 * A chosen file's identity across page loads (name, size, last change): the photo form keeps each
 * image's alt text under it, so choosing the same file again after closing the tab brings its
 * words back (the file itself is never kept).
 */
export const fileIdentity = (file: { name: string; size: number; lastModified: number }): string =>
  `${file.name}:${file.size}:${file.lastModified}`;

/**
 * The alt texts to keep: those kept before (images not chosen again yet) with the written ones
 * of the images now in the form over them; blank ones are left out.
 */
export function keptAltTexts(
  before: Record<string, string>,
  entries: ReadonlyArray<{ file: { name: string; size: number; lastModified: number }; alt: string }>,
): Record<string, string> {
  const alts: Record<string, string> = { ...before };
  for (const entry of entries) {
    const id = fileIdentity(entry.file);
    if (entry.alt.trim()) alts[id] = entry.alt;
    else delete alts[id];
  }
  return alts;
}

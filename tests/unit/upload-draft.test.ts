import { describe, expect, it } from 'vitest';
import {
  draftKey,
  draftValue,
  fileIdentity,
  isBlankDraft,
  keptAltTexts,
  mergeDraft,
  restoredPartTitle,
} from '../../src/lib/upload/draft.ts';

describe('upload drafts', () => {
  it('keeps one draft per member and form', () => {
    expect(draftKey(7, 'video')).toBe('7:video');
    expect(draftKey(7, 'audio')).not.toBe(draftKey(8, 'audio'));
  });
  it('keeps nothing while nothing was entered', () => {
    expect(isBlankDraft({ title: '  ', description: '', tags: [], cover: null, ensureOriginal: false })).toBe(true);
    expect(isBlankDraft({ meta: { title: '', tags: [] }, partTitles: ['', ' '] })).toBe(true);
    expect(isBlankDraft({ title: 'x' })).toBe(false);
    expect(isBlankDraft({ meta: { tags: [{ tagId: 3 }] } })).toBe(false);
    expect(isBlankDraft({ pushToFeed: true })).toBe(false);
  });
  it('writes each part of a form over its own fields only', () => {
    expect(
      mergeDraft({ partTitles: ['a'], form: { meta: { title: 'old' } } }, { form: { meta: { title: 'new' } } }),
    ).toEqual({ partTitles: ['a'], form: { meta: { title: 'new' } } });
    expect(mergeDraft(undefined, { title: 't' })).toEqual({ title: 't' });
  });
  it('titles a part chosen again as the draft had it, else from its file', () => {
    expect(restoredPartTitle(['Opening', 'Part two'], 1, 'clip-2')).toBe('Part two');
    expect(restoredPartTitle(['Opening'], 1, 'clip-2')).toBe('clip-2');
    expect(restoredPartTitle(['  '], 0, 'clip')).toBe('clip');
    expect(restoredPartTitle(undefined, 0, 'clip')).toBe('clip');
  });
  it('reads a field back only when it has the expected type (an older draft falls back)', () => {
    expect(draftValue({ pushToFeed: false }, 'pushToFeed', true)).toBe(false);
    expect(draftValue({ pushToFeed: 'no' }, 'pushToFeed', true)).toBe(true);
    expect(draftValue({ tags: 'x' }, 'tags', [] as number[])).toEqual([]);
    expect(draftValue({ tags: [1] }, 'tags', [] as number[])).toEqual([1]);
    expect(draftValue({ cover: '/media/c.webp' }, 'cover', null as string | null)).toBe('/media/c.webp');
    expect(draftValue(null, 'title', 'fallback')).toBe('fallback');
  });
  it('keeps each photo’s alt text under its file, also for images not chosen again yet', () => {
    const sunrise = { name: 'sunrise.jpg', size: 1200, lastModified: 1 };
    const harbour = { name: 'harbour.jpg', size: 900, lastModified: 2 };
    expect(fileIdentity(sunrise)).not.toBe(fileIdentity({ ...sunrise, lastModified: 3 }));
    const kept = keptAltTexts({}, [
      { file: sunrise, alt: 'The sun over the bay' },
      { file: harbour, alt: '  ' },
    ]);
    expect(kept).toEqual({ [fileIdentity(sunrise)]: 'The sun over the bay' });
    // Restored, with only the harbour chosen again and described: the sunrise's words stay.
    expect(keptAltTexts(kept, [{ file: harbour, alt: 'Boats at rest' }])).toEqual({
      [fileIdentity(sunrise)]: 'The sun over the bay',
      [fileIdentity(harbour)]: 'Boats at rest',
    });
    // An alt text emptied in the form is not kept.
    expect(keptAltTexts(kept, [{ file: sunrise, alt: '' }])).toEqual({});
    expect(isBlankDraft({ title: '', alts: {} })).toBe(true);
    expect(isBlankDraft({ title: '', alts: kept })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { tagDisplayName } from '../../src/lib/tags/tag-name.ts';
import type { Tag } from '../../src/lib/api/contracts/video.ts';

const miku: Tag = {
  tagId: 1,
  tagNameList: [
    { lang: 'ja', tagName: [{ name: '初音ミク', isDefault: true, isOriginalTagName: true }] },
    { lang: 'zht', tagName: [{ name: '初音未來', isDefault: true, isOriginalTagName: false }] },
    {
      lang: 'en',
      tagName: [
        { name: 'Miku', isDefault: false, isOriginalTagName: false },
        { name: 'Hatsune Miku', isDefault: true, isOriginalTagName: false },
      ],
    },
  ],
};

describe('a tag shown in the viewer’s language', () => {
  it('uses the default name of the viewer’s language', () => {
    expect(tagDisplayName(miku, 'en')).toBe('Hatsune Miku');
    expect(tagDisplayName(miku, 'ja')).toBe('初音ミク');
  });
  it('falls back to a close Chinese variant, then to the original name', () => {
    expect(tagDisplayName(miku, 'zhs')).toBe('初音未來');
    expect(tagDisplayName(miku, 'ko')).toBe('初音ミク');
    expect(tagDisplayName(miku, 'fr')).toBe('Hatsune Miku'); // French reads English before the original
  });
  it('uses English, then any name, when no name is marked original', () => {
    const plain: Tag = {
      tagId: 2,
      tagNameList: [{ lang: 'other', tagName: [{ name: 'Lo-fi', isDefault: true, isOriginalTagName: false }] }],
    };
    expect(tagDisplayName(plain, 'zhs')).toBe('Lo-fi');
  });
});

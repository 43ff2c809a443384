import { describe, expect, it } from 'vitest';
import { plainText, serializeSafeTree, toSafeTree, type DomLike } from '../../src/lib/comments/comment-html.ts';

/** A small DOM-like tree: strings are text nodes, [name, ...children] are elements. */
type Spec = string | [string, ...Spec[]];
const dom = (spec: Spec): DomLike =>
  typeof spec === 'string'
    ? { nodeType: 3, nodeName: '#text', nodeValue: spec, childNodes: [] }
    : {
        nodeType: 1,
        nodeName: spec[0].toUpperCase(),
        nodeValue: null,
        childNodes: spec.slice(1).map((s) => dom(s as Spec)),
      };
const root = (...children: Spec[]) => dom(['body', ...children]);

describe('comment HTML allow-list walk', () => {
  it('keeps the editor’s formatting, mapped to one tag each', () => {
    const tree = toSafeTree(root(['strong', 'a'], ['em', 'b'], ['u', 'c'], ['strike', 'd'], ['div', 'line'], ['br']));
    expect(serializeSafeTree(tree)).toBe('<b>a</b><i>b</i><u>c</u><s>d</s><p>line</p><br>');
  });
  it('drops scripts and styles entirely and unwraps every other element to its text', () => {
    const tree = toSafeTree(
      root(['script', 'alert(1)'], ['style', '*{}'], ['a', 'link'], ['span', ['b', 'kept']], ['svg', 'x'], ['img']),
    );
    expect(serializeSafeTree(tree)).toBe('link<b>kept</b>');
  });
  it('escapes text, so markup written as text stays text', () => {
    expect(serializeSafeTree(toSafeTree(root('<img src=x onerror=alert(1)> & more')))).toBe(
      '&lt;img src=x onerror=alert(1)&gt; &amp; more',
    );
  });
  it('ignores comments and other node kinds, and stops at a sane depth', () => {
    const commentNode: DomLike = { nodeType: 8, nodeName: '#comment', nodeValue: '<script>', childNodes: [] };
    expect(toSafeTree({ ...root('a'), childNodes: [commentNode, dom('a')] })).toEqual(['a']);
    let deep: Spec = 'bottom';
    for (let i = 0; i < 40; i++) deep = ['b', deep];
    expect(serializeSafeTree(toSafeTree(root(deep)))).not.toContain('bottom');
  });
  it('tells the visible text, with line breaks', () => {
    expect(plainText(toSafeTree(root('a', ['br'], ['p', 'b'], '  ')))).toBe('a\nb\n  ');
  });
});

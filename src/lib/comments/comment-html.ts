/**
 * Comment formatting as an allow-list walk over a DOM tree: the editor's content becomes the
 * HTML it sends, and the server's (already sanitised) HTML becomes what the page shows. Only
 * b, i, u, s, br and p survive, without any attribute; other elements give up their text;
 * scripts, styles and the like vanish entirely. Works on any DOM-like tree (no framework).
 */
export type CommentTag = 'b' | 'i' | 'u' | 's' | 'br' | 'p';
export type SafeNode = string | { tag: CommentTag; children: SafeNode[] };

/** Element names (lower-case) and the tag each becomes. */
const ALLOWED: Record<string, CommentTag> = {
  b: 'b',
  strong: 'b',
  i: 'i',
  em: 'i',
  u: 'u',
  s: 's',
  strike: 's',
  del: 's',
  br: 'br',
  p: 'p',
  div: 'p',
};
/** Elements whose content is not text a person wrote. */
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'textarea',
  'select',
  'title',
  'head',
]);
const MAX_DEPTH = 12;

export interface DomLike {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<DomLike>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

export function toSafeTree(root: DomLike, depth = 0): SafeNode[] {
  const out: SafeNode[] = [];
  for (const node of Array.from(root.childNodes)) {
    if (node.nodeType === TEXT_NODE) {
      if (node.nodeValue) out.push(node.nodeValue);
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const name = node.nodeName.toLowerCase();
    if (DROPPED.has(name)) continue;
    const tag = ALLOWED[name];
    const children = depth < MAX_DEPTH ? toSafeTree(node, depth + 1) : [];
    if (tag === 'br') out.push({ tag, children: [] });
    else if (tag) out.push({ tag, children });
    else out.push(...children);
  }
  return out;
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function serializeSafeTree(nodes: SafeNode[]): string {
  return nodes
    .map((n) =>
      typeof n === 'string'
        ? escapeText(n)
        : n.tag === 'br'
          ? '<br>'
          : `<${n.tag}>${serializeSafeTree(n.children)}</${n.tag}>`,
    )
    .join('');
}

/** The visible text of a tree (what "is it empty?" and keyword filters look at). */
export function plainText(nodes: SafeNode[]): string {
  return nodes
    .map((n) =>
      typeof n === 'string'
        ? n
        : n.tag === 'br' || n.tag === 'p'
          ? `${plainText(n.children)}\n`
          : plainText(n.children),
    )
    .join('');
}

/**
 * The small rich-text editor of /dev/test-rich-text-editor: a contenteditable box with bold,
 * italic, links and lists (the browser's editing commands), and what it holds as sanitised HTML.
 * Sanitising keeps an allowlist only: strong, em, a (http, https and mailto addresses, opened
 * with rel="noopener noreferrer nofollow"), ul, ol, li, p and br; any other element gives up its
 * tag but keeps its text, and script-like elements go with their content. Parsing happens in an
 * inert <template>, so nothing in the input runs or loads; pasted HTML is sanitised the same way
 * before it enters the editor.
 */
const KEEP: Record<string, string> = {
  B: 'strong',
  STRONG: 'strong',
  I: 'em',
  EM: 'em',
  A: 'a',
  UL: 'ul',
  OL: 'ol',
  LI: 'li',
  P: 'p',
  DIV: 'p',
  BR: 'br',
};
const DROP = new Set([
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'NOSCRIPT',
  'SVG',
  'MATH',
  'TEXTAREA',
  'SELECT',
  'HEAD',
  'TITLE',
]);
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The address as an absolute http(s) or mailto URL, or null for anything else (javascript:, data:, junk). */
export function safeHref(href: string | null | undefined): string | null {
  if (!href?.trim()) return null;
  try {
    const url = new URL(href.trim());
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function copyInto(from: ParentNode, to: Node, doc: Document): void {
  for (const child of Array.from(from.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) {
      to.appendChild(doc.createTextNode(child.textContent ?? ''));
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) continue; // comments, processing instructions
    const element = child as Element;
    const name = element.tagName.toUpperCase();
    if (DROP.has(name)) continue;
    const tag = KEEP[name];
    const href = tag === 'a' ? safeHref(element.getAttribute('href')) : null;
    if (!tag || (tag === 'a' && !href)) {
      copyInto(element, to, doc);
      continue;
    }
    const kept = doc.createElement(tag);
    if (href) {
      kept.setAttribute('href', href);
      kept.setAttribute('rel', 'noopener noreferrer nofollow');
    }
    copyInto(element, kept, doc);
    to.appendChild(kept);
  }
}

/** The HTML with only the allowed elements and addresses, and no attribute but a link's. */
export function sanitizeRichText(html: string, doc: Document = document): string {
  const template = doc.createElement('template');
  template.innerHTML = html;
  const out = doc.createElement('div');
  copyInto(template.content, out, doc);
  return out.innerHTML;
}

type Command = 'bold' | 'italic' | 'insertUnorderedList' | 'insertOrderedList' | 'removeFormat' | 'unlink';

/** Wires the editor inside `root`: toolbar, link form and the sanitised output. */
export function wireRichTextEditor(root: HTMLElement): void {
  const editor = root.querySelector<HTMLElement>('[data-editor]')!;
  const html = root.querySelector<HTMLElement>('[data-editor-html]')!;
  const preview = root.querySelector<HTMLElement>('[data-editor-preview]')!;
  const linkForm = root.querySelector<HTMLFormElement>('[data-link-form]')!;
  const linkInput = linkForm.querySelector<HTMLInputElement>('input')!;
  const linkError = linkForm.querySelector<HTMLElement>('[data-link-error]')!;
  let savedRange: Range | null = null;

  // The browser's editing commands (document.execCommand: deprecated, but the one way to edit a
  // contenteditable with the undo history kept) on paragraphs rather than divs.
  document.execCommand('defaultParagraphSeparator', false, 'p');
  const render = () => {
    const clean = sanitizeRichText(editor.innerHTML);
    html.textContent = clean;
    preview.innerHTML = clean;
  };
  const syncToolbar = () => {
    for (const button of root.querySelectorAll<HTMLButtonElement>('[data-command][aria-pressed]')) {
      button.setAttribute(
        'aria-pressed',
        String(
          editor.contains(getSelection()?.anchorNode ?? null) && document.queryCommandState(button.dataset.command!),
        ),
      );
    }
  };
  const run = (command: Command) => {
    editor.focus();
    document.execCommand(command);
    render();
    syncToolbar();
  };

  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-command]')) {
    // Keep the selection in the editor while a toolbar button is pressed.
    button.addEventListener('mousedown', (event) => event.preventDefault());
    button.addEventListener('click', () => run(button.dataset.command as Command));
  }
  root.querySelector<HTMLButtonElement>('[data-link-open]')!.addEventListener('click', () => {
    const selection = getSelection();
    savedRange =
      selection?.rangeCount && editor.contains(selection.anchorNode) ? selection.getRangeAt(0).cloneRange() : null;
    linkForm.hidden = false;
    linkError.hidden = true;
    linkInput.focus();
  });
  linkForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const href = safeHref(linkInput.value);
    linkError.hidden = Boolean(href);
    linkInput.setAttribute('aria-invalid', String(!href));
    if (!href) return;
    editor.focus();
    if (savedRange) {
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(savedRange);
    }
    // With nothing selected, the address itself becomes the link's text.
    if (getSelection()?.isCollapsed)
      document.execCommand(
        'insertHTML',
        false,
        `<a href="${href.replace(/"/g, '&quot;')}">${href.replace(/</g, '&lt;')}</a>`,
      );
    else document.execCommand('createLink', false, href);
    linkForm.hidden = true;
    linkInput.value = '';
    render();
  });
  linkForm.addEventListener('reset', () => {
    linkForm.hidden = true;
    linkError.hidden = true;
    editor.focus();
  });
  editor.addEventListener('input', render);
  // Pasted HTML is sanitised before it reaches the page (plain text the browser inserts as text).
  editor.addEventListener('paste', (event) => {
    const pasted = event.clipboardData?.getData('text/html');
    if (!pasted) return;
    event.preventDefault();
    document.execCommand('insertHTML', false, sanitizeRichText(pasted));
    render();
  });
  editor.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      root.querySelector<HTMLButtonElement>('[data-link-open]')!.click();
    }
  });
  document.addEventListener('selectionchange', syncToolbar);
  render();
  root.dataset.ready = '';
}

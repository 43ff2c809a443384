import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { plainText, serializeSafeTree, toSafeTree } from '../../lib/comments/comment-html.ts';

type Format = 'bold' | 'italic' | 'underline' | 'strikeThrough';
const FORMATS: Array<{ command: Format; label: string; glyph: string; className: string }> = [
  { command: 'bold', label: 'comments.bold', glyph: 'B', className: 'is-bold' },
  { command: 'italic', label: 'comments.italic', glyph: 'I', className: 'is-italic' },
  { command: 'underline', label: 'comments.underline', glyph: 'U', className: 'is-underline' },
  { command: 'strikeThrough', label: 'comments.strikethrough', glyph: 'S', className: 'is-strike' },
];
const NONE_PRESSED: Record<Format, boolean> = { bold: false, italic: false, underline: false, strikeThrough: false };

interface Props {
  t: (key: string) => string;
  busy: boolean;
  /** Gets the allow-listed HTML; resolves true when sent (the editor then empties). */
  onSend: (html: string) => Promise<boolean>;
}

/**
 * A small rich-text editor: bold, italic, underline and strikethrough (buttons show whether the
 * caret's text has them), Ctrl+Enter sends. What leaves it is only the allowed tags.
 */
export default function CommentEditor({ t, busy, onSend }: Props) {
  const editor = useRef<HTMLDivElement>(null);
  const [pressed, setPressed] = useState(NONE_PRESSED);
  const [empty, setEmpty] = useState(true);

  const refresh = () => {
    const root = editor.current;
    if (!root) return;
    const selection = document.getSelection();
    const inside = !!selection?.anchorNode && root.contains(selection.anchorNode);
    setPressed(inside
      ? { bold: document.queryCommandState('bold'), italic: document.queryCommandState('italic'), underline: document.queryCommandState('underline'), strikeThrough: document.queryCommandState('strikeThrough') }
      : NONE_PRESSED);
    setEmpty(!plainText(toSafeTree(root)).trim());
  };

  useEffect(() => {
    document.addEventListener('selectionchange', refresh);
    return () => document.removeEventListener('selectionchange', refresh);
  }, []);

  const format = (command: Format) => {
    editor.current?.focus();
    document.execCommand(command);
    refresh();
  };

  const send = async () => {
    const root = editor.current;
    if (!root || busy) return;
    const tree = toSafeTree(root);
    if (!plainText(tree).trim()) return;
    if (await onSend(serializeSafeTree(tree))) {
      root.replaceChildren();
      refresh();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <div className="comment-editor" data-comment-editor>
      <div className="comment-toolbar" role="toolbar" aria-label={t('comments.formatting')}>
        {FORMATS.map((f) => (
          <button key={f.command} type="button" className={`comment-format ${f.className}`} aria-pressed={pressed[f.command]}
            aria-label={t(f.label)} title={t(f.label)} data-format={f.command}
            // Keep the selection in the editor while clicking a button.
            onMouseDown={(e) => e.preventDefault()} onClick={() => format(f.command)}>
            {f.glyph}
          </button>
        ))}
      </div>
      <div ref={editor} className="comment-input" contentEditable={!busy} suppressContentEditableWarning role="textbox" aria-multiline="true"
        aria-label={t('comments.placeholder')} data-placeholder={t('comments.placeholder')} data-empty={empty || undefined}
        onInput={refresh} onKeyDown={onKeyDown} onPaste={(e) => {
          // Pasted text arrives as text; formatting comes only from the buttons.
          e.preventDefault();
          document.execCommand('insertText', false, e.clipboardData.getData('text/plain'));
        }} />
      <div className="comment-editor-footer">
        <span className="field-hint">{t('comments.sendHint')}</span>
        <button type="button" className="button" disabled={busy || empty} onClick={() => void send()} data-comment-send>{t('comments.send')}</button>
      </div>
    </div>
  );
}

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { plainText, serializeSafeTree, toSafeTree } from '../../lib/comments/comment-html.ts';
import type { MentionCandidatesResponse } from '../../lib/api/contracts/interaction.ts';

type Candidate = MentionCandidatesResponse['users'][number];
/** The "@name" being typed just before the caret. */
const TYPED_MENTION = /@([^\s@<>]{0,20})$/u;

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
  /** People to offer after "@" (the names typed so far); without it, no suggestions. */
  mentionSource?: (prefix: string) => Promise<Candidate[]>;
  /** A placeholder of its own (a reply editor names who is answered). */
  placeholder?: string;
  /** Focus the editor when it appears (an inline reply editor). */
  autoFocus?: boolean;
  onCancel?: () => void;
}

/**
 * A small rich-text editor: bold, italic, underline and strikethrough (buttons show whether the
 * caret's text has them), Ctrl+Enter sends. What leaves it is only the allowed tags.
 */
export default function CommentEditor({ t, busy, onSend, mentionSource, placeholder, autoFocus, onCancel }: Props) {
  const editor = useRef<HTMLDivElement>(null);
  const [pressed, setPressed] = useState(NONE_PRESSED);
  const [empty, setEmpty] = useState(true);
  const [suggestions, setSuggestions] = useState<Candidate[]>([]);
  const [active, setActive] = useState(0);
  const asked = useRef(0);

  useEffect(() => {
    if (autoFocus) editor.current?.focus();
  }, [autoFocus]);

  /** The "@prefix" before the caret, with the text node and offset it ends at. */
  const typedMention = () => {
    const selection = document.getSelection();
    const node = selection?.anchorNode;
    if (!node || node.nodeType !== Node.TEXT_NODE || !editor.current?.contains(node)) return null;
    const before = (node.nodeValue ?? '').slice(0, selection!.anchorOffset);
    const match = TYPED_MENTION.exec(before);
    return match
      ? { node, end: selection!.anchorOffset, start: selection!.anchorOffset - match[0].length, prefix: match[1] }
      : null;
  };

  const suggest = () => {
    const typed = mentionSource ? typedMention() : null;
    const ask = ++asked.current;
    if (!typed) return setSuggestions([]);
    mentionSource!(typed.prefix).then(
      (users) => ask === asked.current && (setSuggestions(users), setActive(0)),
      () => setSuggestions([]),
    );
  };

  /** Replaces the "@prefix" being typed by the member's whole name and a space. */
  const choose = (user: Candidate) => {
    const typed = typedMention();
    setSuggestions([]);
    if (!typed) return;
    const range = document.createRange();
    range.setStart(typed.node, typed.start);
    range.setEnd(typed.node, typed.end);
    const selection = document.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    document.execCommand('insertText', false, `@${user.username} `);
    refresh();
  };

  const refresh = () => {
    const root = editor.current;
    if (!root) return;
    const selection = document.getSelection();
    const inside = !!selection?.anchorNode && root.contains(selection.anchorNode);
    setPressed(
      inside
        ? {
            bold: document.queryCommandState('bold'),
            italic: document.queryCommandState('italic'),
            underline: document.queryCommandState('underline'),
            strikeThrough: document.queryCommandState('strikeThrough'),
          }
        : NONE_PRESSED,
    );
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
    if (suggestions.length) {
      const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
      if (step) {
        event.preventDefault();
        return setActive((active + step + suggestions.length) % suggestions.length);
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        return choose(suggestions[active]);
      }
      if (event.key === 'Escape') return setSuggestions([]);
    }
    if (event.key === 'Escape' && onCancel) return onCancel();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <div className="comment-editor" data-comment-editor>
      <div className="comment-toolbar" role="toolbar" aria-label={t('comments.formatting')}>
        {FORMATS.map((f) => (
          <button
            key={f.command}
            type="button"
            className={`comment-format ${f.className}`}
            aria-pressed={pressed[f.command]}
            aria-label={t(f.label)}
            title={t(f.label)}
            data-format={f.command}
            // Keep the selection in the editor while clicking a button.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => format(f.command)}
          >
            {f.glyph}
          </button>
        ))}
      </div>
      <div
        ref={editor}
        className="comment-input"
        contentEditable={!busy}
        suppressContentEditableWarning
        role="textbox"
        aria-multiline="true"
        aria-label={placeholder ?? t('comments.placeholder')}
        data-placeholder={placeholder ?? t('comments.placeholder')}
        data-empty={empty || undefined}
        aria-autocomplete={mentionSource ? 'list' : undefined}
        aria-expanded={mentionSource ? suggestions.length > 0 : undefined}
        onInput={() => {
          refresh();
          suggest();
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setSuggestions([]), 150)}
        onPaste={(e) => {
          // Pasted text arrives as text; formatting comes only from the buttons.
          e.preventDefault();
          document.execCommand('insertText', false, e.clipboardData.getData('text/plain'));
        }}
      />
      {suggestions.length > 0 && (
        <ul
          className="mention-suggestions"
          role="listbox"
          aria-label={t('conversation.mentionSuggestions')}
          data-mention-suggestions
        >
          {suggestions.map((user, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the editor's arrow keys and Enter choose an option (combobox pattern)
            <li
              key={user.uid}
              role="option"
              aria-selected={i === active}
              data-mention-option={user.username}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(user)}
            >
              {user.avatar ? (
                <img src={user.avatar} alt="" width="24" height="24" />
              ) : (
                <span className="mention-initial" aria-hidden="true">
                  {[...user.username][0]}
                </span>
              )}
              <span>{user.userNickname || user.username}</span> <small>@{user.username}</small>
            </li>
          ))}
        </ul>
      )}
      <div className="comment-editor-footer">
        <span className="field-hint">{t('comments.sendHint')}</span>
        {onCancel && (
          <button type="button" className="button secondary" onClick={onCancel} data-reply-cancel>
            {t('conversation.cancelReply')}
          </button>
        )}
        <button type="button" className="button" disabled={busy || empty} onClick={() => void send()} data-comment-send>
          {t('comments.send')}
        </button>
      </div>
    </div>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { call } from '../../lib/api/client.ts';
import type { PublicProfile } from '../../lib/api/contracts/user.ts';
import { userPath } from '../../lib/catalogue/format.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import FollowButton from '../follow/FollowButton.tsx';
import { Avatar, shownName } from '../follow/Avatar.tsx';
import { useDismiss } from '../use-dismiss.ts';

const HOVER_OPEN_MS = 350;
const HOVER_CLOSE_MS = 250;

/**
 * A commenter's name that opens their card (Bilibili's user card): avatar, name, signature,
 * follower count and a follow button, and a link to their page. Opened by a click or Enter on
 * the name, or by resting the mouse on it; Esc or a click elsewhere closes it. The profile is read
 * once, when the card first opens.
 */
export default function CommentAuthor({
  locale,
  uid,
  name,
  t,
  messages,
}: {
  locale: Locale;
  uid: number;
  name: string;
  t: TFunction;
  messages: Messages;
}) {
  const [open, setOpen] = useState(false);
  const [profile, setProfile] = useState<PublicProfile | null>(null);
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const hover = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Opened by a click or a key: it stays until closed, whatever the mouse does. */
  const pinned = useRef(false);
  const cardId = useId();

  useEffect(() => {
    if (!open || profile) return;
    let live = true;
    call('GET user/info', { uid }).then(
      ({ result }) => live && setProfile(result),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [open, profile, uid]);

  useDismiss(
    open,
    box,
    () => {
      pinned.current = false;
      setOpen(false);
    },
    toggleRef,
  );
  useEffect(() => () => clearTimeout(hover.current), []);

  const later = (next: boolean, ms: number) => {
    clearTimeout(hover.current);
    if (!pinned.current) hover.current = setTimeout(() => setOpen(next), ms);
  };
  const shown = profile ? shownName(profile) : name;
  return (
    <span
      className="comment-author-box"
      ref={box}
      onPointerEnter={(e) => e.pointerType === 'mouse' && later(true, HOVER_OPEN_MS)}
      onPointerLeave={(e) => e.pointerType === 'mouse' && later(false, HOVER_CLOSE_MS)}
    >
      <button
        type="button"
        ref={toggleRef}
        className="comment-author"
        aria-expanded={open}
        aria-controls={open ? cardId : undefined}
        onClick={() => {
          clearTimeout(hover.current);
          pinned.current = !open;
          setOpen(!open);
        }}
        data-user-card-toggle={uid}
      >
        {name}
      </button>
      {open && (
        <span
          className="user-card"
          id={cardId}
          role="group"
          aria-label={t('followLists.cardOf', { name })}
          data-user-card={uid}
        >
          {profile ? (
            <>
              <span className="user-card-head">
                <Avatar src={profile.avatar} name={shown} size={48} />
                <span className="user-card-names">
                  <a className="user-card-name" href={userPath(uid, locale)}>
                    {shown}
                  </a>
                  <small className="user-card-username">@{profile.username}</small>
                </span>
              </span>
              <span className="user-card-signature">{profile.signature || t('followLists.noSignature')}</span>
              <span className="user-card-actions">
                <FollowButton
                  locale={locale}
                  uid={uid}
                  name={shown}
                  messages={messages}
                  followerCount={profile.followerCount}
                  known={{ isFollowing: profile.isFollowing }}
                />
                <a className="user-card-visit" href={userPath(uid, locale)}>
                  {t('followLists.visit')}
                </a>
              </span>
            </>
          ) : failed ? (
            <span role="alert">{t('followLists.loadFailed')}</span>
          ) : (
            <span aria-busy="true">…</span>
          )}
        </span>
      )}
    </span>
  );
}

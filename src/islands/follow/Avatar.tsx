import './follow.css';

/** A person's shown name: the nickname, else the username. */
export const shownName = (person: { username: string; userNickname: string | null }) =>
  person.userNickname || person.username;

/** The avatar, or the name's first character on the accent when there is none. */
export function Avatar({ src, name, size }: { src: string; name: string; size: number }) {
  return src ? (
    <img className="person-avatar" src={src} alt="" width={size} height={size} loading="lazy" />
  ) : (
    <span className="person-avatar person-avatar-empty" style={{ width: size, height: size }} aria-hidden="true">
      {[...name][0] ?? '✦'}
    </span>
  );
}

import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';

/**
 * On a user page's videos (or tracks) tab, for its owner only: the way to "my videos" (or "my
 * tracks"), where every upload of theirs is listed with its state and can be edited or deleted.
 * The page itself is shared by every visitor (and cached), so who is looking is known in the browser only.
 */
export default function ManageVideosLink({
  locale,
  uid,
  messages,
  what = 'videos',
}: {
  locale: Locale;
  uid: number;
  messages: Messages;
  what?: 'videos' | 'tracks';
}) {
  const t = useIslandTranslation(locale, messages);
  const { userInfo } = useSelfUser();
  if (userInfo?.uid !== uid) return null;
  return what === 'tracks' ? (
    <a className="button secondary" href={localizePath('/settings/my-tracks', locale)} data-manage-tracks>
      {t('myTracks.manage')}
    </a>
  ) : (
    <a className="button secondary" href={localizePath('/settings/my-videos', locale)} data-manage-videos>
      {t('myVideos.manage')}
    </a>
  );
}

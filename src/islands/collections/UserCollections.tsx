import { useEffect, useState } from 'react';
import { listCollections } from '../../lib/api/calls/collection.ts';
import type { CollectionSummary } from '../../lib/api/contracts/collection.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { CollectionCard } from './CollectionCard.tsx';

/**
 * The collections tab of a user page: their public collections, and all of them for the owner
 * (the page itself is shared by every viewer; the list is asked for with the viewer's session).
 */
export default function UserCollections({
  locale,
  messages,
  uid,
}: {
  locale: Locale;
  messages: Messages;
  uid: number;
}) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [collections, setCollections] = useState<CollectionSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const viewerUid = self.userInfo?.uid;

  useEffect(() => {
    if (!self.isEffectiveCheckOnce) return;
    let live = true;
    listCollections(uid).then(
      (answer) => live && setCollections(answer.collections),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [uid, viewerUid, self.isEffectiveCheckOnce]);

  if (failed)
    return (
      <p className="card list-empty list-error" role="alert">
        {t('collections.loadFailed')}
      </p>
    );
  if (!collections)
    return (
      <div className="card list-empty" aria-busy="true">
        …
      </div>
    );
  if (!collections.length)
    return (
      <p className="card list-empty" data-user-collections="empty">
        {t('collections.userEmpty')}
      </p>
    );
  return (
    <section className="collections-ui" data-user-collections="ready">
      <ul className="collection-grid">
        {collections.map((c) => (
          <li key={c.collectionId}>
            <CollectionCard collection={c} locale={locale} t={t} />
          </li>
        ))}
      </ul>
    </section>
  );
}

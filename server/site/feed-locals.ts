import type { Services } from '../services/index.ts';
import type { PublicProfile } from '../../src/lib/api/contracts/user.ts';
import type { Tag, VideoThumb } from '../../src/lib/api/contracts/video.ts';
import type { FeedScope } from '../../src/lib/share/feeds.ts';

/** Items a feed carries (the newest approved). */
export const FEED_ITEMS = 50;

export type SiteFeed = { videos: VideoThumb[]; user?: PublicProfile; tag?: Tag };

/** What /feeds/videos.xml asks the server while rendering (part of SiteLocals). */
export interface FeedSiteLocals {
  /** The newest approved videos of the scope, as everyone sees them; null for a user or tag that does not exist. */
  feedVideos(scope: FeedScope): Promise<SiteFeed | null>;
}

export function feedSiteLocals(services: Pick<Services, 'catalogue' | 'profiles'>): FeedSiteLocals {
  const { catalogue, profiles } = services;
  const page = { page: 1, pageSize: FEED_ITEMS };
  return {
    async feedVideos(scope) {
      if (scope.kind === 'site') return { videos: (await catalogue.home(page)).videos };
      if (scope.kind === 'user') {
        const user = await profiles.publicProfile(scope.uid, null);
        return user ? { user, videos: (await catalogue.byUploader(scope.uid, null, page)).videos } : null;
      }
      const [tag] = await catalogue.tags.tagsById([scope.tagId]);
      return tag ? { tag, videos: (await catalogue.byTags([scope.tagId], page)).videos } : null;
    },
  };
}

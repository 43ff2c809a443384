/** SPEC §7 "Feed" calls (they throw HttpError with the server's code and message). */
import { call } from '../client.ts';

export const followUser = (followingUid: number) => call('POST feed/following', { followingUid });
export const unfollowUser = (unfollowingUid: number) => call('POST feed/unfollowing', { unfollowingUid });
/** A page of the member's feed; `cursor` is the previous page's nextCursor. */
export const getFeed = (cursor?: string, pageSize = 20) => call('GET feed/videos', { cursor, pageSize });
/** A page of the people who follow `uid` (followers) or whom `uid` follows (followings). */
export const getFollowPeople = (side: 'followers' | 'followings', uid: number, cursor?: string, pageSize = 30) =>
  call(side === 'followers' ? 'GET feed/followers' : 'GET feed/followings', { uid, cursor, pageSize });

import { defineRoutes } from '../route.ts';
import * as C from '../contracts/block.ts';

const add = <B extends C.BlockBodySchema>(summary: string, body: B) =>
  ({
    tag: 'block',
    summary,
    permission: 'blockList.edit',
    body,
    response: C.blockChangeResponse,
    errors: ['BLOCK_LIST_FULL', 'BLOCK_SELF', 'UNSAFE_REGEX', 'INVALID_REGEX'],
  }) as const;
const remove = <B extends C.BlockBodySchema>(summary: string, body: B) =>
  ({ tag: 'block', summary, permission: 'blockList.clean', body, response: C.blockChangeResponse }) as const;

/**
 * SPEC §7 "Block": a member's lists of blocked and hidden users, tags, keywords and expressions.
 * Adding needs a member in good standing; reading and removing only a login (a banned member may clean up).
 */
export const blockRoutes = defineRoutes({
  'GET block/list': {
    tag: 'block',
    summary: 'One of the member’s lists, newest first, with its limit.',
    permission: 'blockList.clean',
    query: C.blockListQuery,
    response: C.blockListResponse,
    cache: 'private',
  },
  'POST block/user': add(
    'Block a user: their videos, danmaku and comments disappear, and they cannot write to yours.',
    C.blockUserBody,
  ),
  'DELETE block/delete/user': remove('Unblock a user.', C.blockUserBody),
  'POST block/hideuser': add('Hide a user’s videos from lists.', C.hideUserBody),
  'DELETE block/delete/hideuser': remove('Show a hidden user’s videos again.', C.hideUserBody),
  'POST block/tag': add('Block a tag: videos with it disappear from lists.', C.blockTagBody),
  'DELETE block/delete/tag': remove('Unblock a tag.', C.blockTagBody),
  'POST block/keyword': add('Block a keyword in danmaku, comments and titles.', C.blockKeywordBody),
  'DELETE block/delete/keyword': remove('Unblock a keyword.', C.blockKeywordBody),
  'POST block/regex': add('Block a regular expression (checked to be safe).', C.blockRegexBody),
  'DELETE block/delete/regex': remove('Unblock a regular expression.', C.blockRegexBody),
});

import { defineRoutes } from '../route.ts';
import * as C from '../contracts/history.ts';
import { okResponse } from '../contracts/common.ts';

/** SPEC §7 "History": a member's views with the last position, unless they turned it off. */
export const historyRoutes = defineRoutes({
  'GET history/filter': {
    tag: 'history',
    summary: 'The member’s history, newest first; with a title, only videos whose title contains it.',
    permission: 'account.self',
    query: C.historyFilterQuery,
    response: C.historyListResponse,
    cache: 'private',
  },
  'POST history/record': {
    tag: 'history',
    summary: 'Record a view and its position (nothing when the member turned history off).',
    permission: 'account.self',
    resource: 'visibleTarget',
    body: C.historyRecordBody,
    response: C.historyRecordResponse,
  },
  'GET history/anchor': {
    tag: 'history',
    summary: 'The position to resume a video at, if the member watched it before.',
    permission: 'account.self',
    query: C.historyAnchorQuery,
    response: C.historyAnchorResponse,
    cache: 'private',
  },
  'DELETE history/clear': {
    tag: 'history',
    summary: 'Forget the member’s whole history.',
    permission: 'account.self',
    response: okResponse,
  },
});

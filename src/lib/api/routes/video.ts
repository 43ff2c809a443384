import type { z } from 'zod';
import { defineRoutes } from '../route.ts';
import * as C from '../contracts/video.ts';
import { okResponse } from '../contracts/common.ts';

/**
 * A public list of videos: shared caches may keep it briefly, unless the viewer's block lists
 * leave videos out of it (the handler then makes it private).
 */
const list = <Q extends z.ZodType>(summary: string, query: Q) =>
  ({
    tag: 'video',
    summary,
    permission: 'catalogue.read',
    query,
    response: C.videoListResponse,
    cache: 'public',
  }) as const;

/** SPEC §7 "Video": the catalogue, tags and the review queue. */
export const videoRoutes = defineRoutes({
  'GET video/exists': {
    tag: 'video',
    summary: 'Whether a video exists and is public.',
    permission: 'catalogue.read',
    query: C.videoExistsQuery,
    response: C.videoExistsResponse,
  },
  'GET video/home': list('Newest public videos first.', C.homeQuery),
  'GET video/category': list('Newest public videos of a category first.', C.categoryQuery),
  'GET video/user': list(
    'An uploader’s videos, newest first (their own pending ones too, marked, for the uploader), with the block flags between viewer and uploader.',
    C.userVideosQuery,
  ),
  'GET video/search': list(
    'Public videos whose title, description or tags contain every word, best matches first.',
    C.searchQuery,
  ),
  'POST video/search/tag': {
    tag: 'video',
    summary: 'Public videos that carry every one of the tags, newest first.',
    permission: 'catalogue.read',
    body: C.tagSearchVideosBody,
    response: C.videoListResponse,
  },
  'GET video': {
    tag: 'video',
    summary: 'Everything the video page shows; a pending video only to its uploader and staff.',
    permission: 'catalogue.read',
    query: C.videoExistsQuery,
    response: C.videoResponse,
    cache: 'public',
  },
  'POST video/watch': {
    tag: 'video',
    summary: 'Count a view: once per viewer (a member, or a guest’s address and browser) per video per hour.',
    permission: 'catalogue.read',
    body: C.videoIdBody,
    response: C.watchResponse,
  },
  'POST video/tag/create': {
    tag: 'video',
    summary: 'Create a tag with names in several languages (a name a tag already has in that language is refused).',
    permission: 'tag.create',
    body: C.tagCreateBody,
    response: C.tagCreateResponse,
    errors: ['TAG_EXISTS'],
  },
  'GET video/tag/search': {
    tag: 'video',
    summary: 'Tags with a name in any language containing the text: exact names, then prefixes, then the rest.',
    permission: 'catalogue.read',
    query: C.tagSearchQuery,
    response: C.tagSearchResponse,
    cache: 'public',
  },
  'POST video/tag/get': {
    tag: 'video',
    summary: 'Tags by id, in the order asked for (unknown ids left out).',
    permission: 'catalogue.read',
    body: C.tagIdsBody,
    response: C.tagListResponse,
  },
  'GET video/pending': {
    tag: 'video',
    summary: 'The review queue, oldest first, with the parts to preview and the tags.',
    permission: 'video.review',
    query: C.homeQuery,
    response: C.pendingVideosResponse,
    cache: 'private',
  },
  'POST video/pending/approved': {
    tag: 'video',
    summary: 'Approve a pending video: it becomes public.',
    permission: 'video.review',
    body: C.videoIdBody,
    response: okResponse,
    errors: ['MEDIA_REJECTED'],
  },
  'POST video/pending/rejected': {
    tag: 'video',
    summary:
      'Refuse a pending video with a reason (and a note, needed with OTHER): it is removed, and its uploader reads why in "my videos".',
    permission: 'video.review',
    body: C.videoRejectBody,
    response: okResponse,
  },
  'GET video/mine': {
    tag: 'video',
    summary:
      'The caller’s own videos, newest first, every status (processing, pending, approved, rejected), with danmaku and comment counts.',
    permission: 'video.mine',
    query: C.myVideosQuery,
    response: C.myVideosResponse,
    cache: 'private',
  },
  'POST video/update': {
    tag: 'video',
    summary:
      'Change a video’s title, description, tags, category or cover (its uploader, or staff); an approved video whose text or cover changes goes back to review.',
    permission: 'video.edit',
    resource: 'video',
    body: C.videoUpdateBody,
    response: C.videoUpdateResponse,
    // A 2,000-character description, the title and tags, as the commit.
    maxBodyBytes: 64 * 1024,
  },
  'DELETE video/delete': {
    tag: 'video',
    summary: 'Delete a video (its uploader, or staff).',
    permission: 'video.delete',
    resource: 'video',
    body: C.videoIdBody,
    response: okResponse,
  },
});

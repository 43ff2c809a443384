import { defineRoutes } from '../route.ts';
import * as C from '../contracts/collection.ts';

const perMember = [{ limit: 'collectionPerUser', by: 'uid' }] as const;

/**
 * Collections (favourites, playlists): a member's ordered lists of videos, audio tracks and photo
 * posts (mediaType says which an id names; a video when absent), public or private.
 * A private collection is its owner's alone: to anyone else it does not exist (404, never 403),
 * on reads and writes alike. Writes to another member's public collection are refused (403).
 */
export const collectionRoutes = defineRoutes({
  'POST collection/create': {
    tag: 'collection',
    summary: 'Create a collection (at most 100 per member), optionally with a first video.',
    permission: 'collection.create',
    body: C.collectionCreateBody,
    response: C.collectionResponse,
    rateLimits: perMember,
    cache: 'no-store',
    errors: ['COLLECTIONS_LIMIT', 'VIDEO_UNAVAILABLE'],
  },
  'POST collection/update': {
    tag: 'collection',
    summary: 'Change a collection’s title, description, visibility or cover (only the fields sent).',
    permission: 'collection.edit',
    resource: 'collection',
    body: C.collectionUpdateBody,
    response: C.collectionResponse,
    rateLimits: perMember,
    cache: 'no-store',
    errors: ['NOT_IN_COLLECTION'],
  },
  'POST collection/delete': {
    tag: 'collection',
    summary: 'Delete a collection (its videos stay where they are).',
    permission: 'collection.clean',
    resource: 'collection',
    body: C.collectionIdBody,
    response: C.collectionDoneResponse,
    rateLimits: perMember,
    cache: 'no-store',
  },
  'GET collection/list': {
    tag: 'collection',
    summary: 'A user’s collections, newest first: the public ones, and the private ones too for their owner.',
    permission: 'catalogue.read',
    query: C.collectionListQuery,
    response: C.collectionListResponse,
    cache: 'private',
  },
  'GET collection/get': {
    tag: 'collection',
    summary:
      'A collection and a page of its available items (videos, tracks, posts) in order; unavailable ones are only counted.',
    permission: 'catalogue.read',
    query: C.collectionGetQuery,
    response: C.collectionGetResponse,
    cache: 'private',
  },
  'POST collection/addVideo': {
    tag: 'collection',
    summary:
      'Add an approved video, track or photo post at the end (at most 1000 items); adding it again changes nothing.',
    permission: 'collection.edit',
    resource: 'collection',
    body: C.collectionVideoBody,
    response: C.collectionVideoChangeResponse,
    rateLimits: perMember,
    cache: 'no-store',
    errors: ['COLLECTION_FULL', 'VIDEO_UNAVAILABLE'],
  },
  'POST collection/removeVideo': {
    tag: 'collection',
    summary: 'Take a video, track or photo post out of a collection; when it was not there, nothing changes.',
    permission: 'collection.clean',
    resource: 'collection',
    body: C.collectionVideoBody,
    response: C.collectionVideoChangeResponse,
    rateLimits: perMember,
    cache: 'no-store',
  },
  'POST collection/reorder': {
    tag: 'collection',
    summary: 'Put a collection’s items in a new order.',
    permission: 'collection.edit',
    resource: 'collection',
    body: C.collectionReorderBody,
    response: C.collectionDoneResponse,
    rateLimits: perMember,
    cache: 'no-store',
    errors: ['NOT_IN_COLLECTION'],
    // Up to 1000 video ids.
    maxBodyBytes: 32 * 1024,
  },
  'GET collection/containing': {
    tag: 'collection',
    summary: 'Which of the member’s own collections hold a video, track or photo post.',
    permission: 'collection.mine',
    query: C.collectionContainingQuery,
    response: C.collectionContainingResponse,
    cache: 'private',
  },
});

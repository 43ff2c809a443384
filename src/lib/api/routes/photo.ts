import { defineRoutes } from '../route.ts';
import { homeQuery, searchQuery, tagSearchVideosBody, userVideosQuery } from '../contracts/video.ts';
import { okResponse } from '../contracts/common.ts';
import * as P from '../contracts/photo.ts';

/** A public list of posts (private when the viewer's block lists leave posts out of it). */
const list = <Q>(summary: string, query: Q) =>
  ({
    tag: 'photo',
    summary,
    permission: 'catalogue.read',
    query,
    response: P.photoListResponse,
    cache: 'public',
  }) as const;

/** Issue 13: photo posts of one to thirty images, reviewed before they are public. */
export const photoRoutes = defineRoutes({
  'POST photo/upload': {
    tag: 'photo',
    summary:
      'Commit a post: its uploaded images (each checked: a real JPEG, PNG, WebP, AVIF or GIF of at most 50 MB and 100 megapixels) with alt text, title, description, tags and copyright; it is rendered, then waits for review.',
    permission: 'photo.upload',
    body: P.photoUploadBody,
    response: P.photoUploadResponse,
    errors: ['NOT_AN_IMAGE', 'UNSUPPORTED_IMAGE_FORMAT', 'IMAGE_TOO_LARGE', 'TOO_MANY_PIXELS', 'CONFLICT'],
    // Thirty alt texts of 1,000 characters, a 2,000-character description.
    maxBodyBytes: 160 * 1024,
  },
  'GET photo': {
    tag: 'photo',
    summary: 'A post with its images, alt text and tags; one not yet public only to its uploader and staff.',
    permission: 'catalogue.read',
    query: P.photoIdQuery,
    response: P.photoResponse,
    cache: 'public',
  },
  'GET photo/home': list('Newest public posts first.', homeQuery),
  'GET photo/user': list(
    'An uploader’s posts, newest first (their own unpublished ones too, marked, for the uploader).',
    userVideosQuery,
  ),
  'GET photo/search': list('Public posts whose title, description or tags contain every word.', searchQuery),
  'POST photo/search/tag': {
    tag: 'photo',
    summary: 'Public posts that carry every one of the tags, newest first.',
    permission: 'catalogue.read',
    body: tagSearchVideosBody,
    response: P.photoListResponse,
  },
  'GET photo/pending': {
    tag: 'photo',
    summary: 'The photo review queue, oldest first, with every image.',
    permission: 'photo.review',
    query: homeQuery,
    response: P.pendingPhotosResponse,
    cache: 'private',
  },
  'POST photo/pending/approved': {
    tag: 'photo',
    summary: 'Approve a post waiting for review: it becomes public.',
    permission: 'photo.review',
    body: P.photoIdBody,
    response: okResponse,
  },
  'POST photo/pending/rejected': {
    tag: 'photo',
    summary:
      'Refuse a post waiting for review with a reason (and a note, needed with OTHER): it is removed, and its uploader reads why on their Photos tab.',
    permission: 'photo.review',
    body: P.photoRejectBody,
    response: okResponse,
  },
  'DELETE photo/delete': {
    tag: 'photo',
    summary: 'Delete a post (its uploader, or staff).',
    permission: 'photo.delete',
    resource: 'photo',
    body: P.photoIdBody,
    response: okResponse,
  },
});

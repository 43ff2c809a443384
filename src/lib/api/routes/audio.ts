import { defineRoutes } from '../route.ts';
import { okResponse } from '../contracts/common.ts';
import { homeQuery } from '../contracts/video.ts';
import * as A from '../contracts/audio.ts';

/**
 * The audio section (issue 13): tracks are uploaded through the shared tus endpoint
 * (metadata kind=audio), committed here, reviewed before they are public, and listened to with
 * danmaku and comments (the video/danmaku and video/comment calls with mediaType=audio).
 */
export const audioRoutes = defineRoutes({
  'POST audio/upload': {
    tag: 'audio',
    summary:
      'Commit an audio track: its uploaded file (probed as audio, not refused, not used elsewhere), metadata and tags; it waits for review.',
    permission: 'audio.upload',
    body: A.audioUploadBody,
    response: A.audioUploadResponse,
    errors: ['MEDIA_NOT_READY', 'MEDIA_REJECTED', 'CONFLICT'],
    maxBodyBytes: 64 * 1024,
  },
  'GET audio': {
    tag: 'audio',
    summary:
      'Everything the track page plays and shows (streams, waveform, loudness, the uploader’s queue); a pending track only to its uploader and staff.',
    permission: 'catalogue.read',
    query: A.audioIdQuery,
    response: A.audioResponse,
    cache: 'public',
  },
  'GET audio/home': {
    tag: 'audio',
    summary: 'Public tracks, newest or most played first.',
    permission: 'catalogue.read',
    query: A.audioHomeQuery,
    response: A.audioListResponse,
    cache: 'public',
  },
  'GET audio/user': {
    tag: 'audio',
    summary: 'An uploader’s tracks, newest first (their own pending ones too, marked, for the uploader).',
    permission: 'catalogue.read',
    query: A.audioUserQuery,
    response: A.audioListResponse,
    cache: 'public',
  },
  'GET audio/related': {
    tag: 'audio',
    summary:
      'Approved tracks related to one (shared tags, same uploader, listened to by the same members), without what the viewer blocked or hid.',
    permission: 'catalogue.read',
    query: A.relatedTracksQuery,
    response: A.relatedTracksResponse,
    cache: 'private',
  },
  'GET audio/search': {
    tag: 'audio',
    summary: 'Public tracks whose title, artist, description or tags contain every word, or that carry a tag.',
    permission: 'catalogue.read',
    query: A.audioSearchQuery,
    response: A.audioListResponse,
    cache: 'public',
  },
  'POST audio/play': {
    tag: 'audio',
    summary: 'Count a play: once per listener (a member, or a guest’s address and browser) per track per hour.',
    permission: 'catalogue.read',
    body: A.audioIdBody,
    response: A.audioPlayResponse,
  },
  'GET audio/mine': {
    tag: 'audio',
    summary: 'The caller’s own tracks, newest first (pending and approved), with what “my tracks” edits.',
    permission: 'audio.mine',
    query: A.myTracksQuery,
    response: A.myTracksResponse,
    cache: 'private',
  },
  'POST audio/update': {
    tag: 'audio',
    summary:
      'Change a track’s title, artist, description, tags, category or cover (its uploader, or staff); an approved track whose text, cover or tags change goes back to review.',
    permission: 'audio.edit',
    resource: 'audio',
    body: A.audioUpdateBody,
    response: A.audioUpdateResponse,
    // A 2,000-character description, the title and tags, as the commit.
    maxBodyBytes: 64 * 1024,
  },
  'DELETE audio/delete': {
    tag: 'audio',
    summary: 'Delete a track (its uploader, or staff).',
    permission: 'audio.delete',
    resource: 'audio',
    body: A.audioIdBody,
    response: okResponse,
  },
  'GET audio/pending': {
    tag: 'audio',
    summary: 'The audio review queue, oldest first, with the stream to listen to and the tags.',
    permission: 'audio.review',
    query: homeQuery,
    response: A.pendingAudioResponse,
    cache: 'private',
  },
  'POST audio/pending/approved': {
    tag: 'audio',
    summary: 'Approve a pending track: it becomes public.',
    permission: 'audio.review',
    body: A.audioIdBody,
    response: okResponse,
  },
  'POST audio/pending/rejected': {
    tag: 'audio',
    summary:
      'Refuse a pending track with a reason (and a note, needed with OTHER): it is removed, and its uploader reads why in "my tracks".',
    permission: 'audio.review',
    body: A.audioRejectBody,
    response: okResponse,
  },
});

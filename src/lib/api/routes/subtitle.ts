import { defineRoutes } from '../route.ts';
import * as S from '../contracts/subtitle.ts';

/**
 * Subtitle tracks of a video's parts (issue 29). Anyone who may see the video reads its list;
 * the files themselves are under the part's media folder, so they follow the video's review
 * state as its streams do. Adding and removing: the uploader, or staff.
 */
export const subtitleRoutes = defineRoutes({
  'POST video/subtitle/create': {
    tag: 'video',
    summary:
      'Add a subtitle track (ASS, SRT or WebVTT, at most 4 MB) to a part of a video; the file is parsed and refused when malformed, and a WebVTT copy is made.',
    permission: 'subtitle.edit',
    resource: 'video',
    body: S.subtitleCreateBody,
    response: S.subtitleCreateResponse,
    cache: 'no-store',
    errors: ['SUBTITLE_MALFORMED', 'SUBTITLES_LIMIT'],
    // 4 MB of text, most of it sent as is in JSON; escaped line breaks and backslashes with room.
    maxBodyBytes: 9 * 1024 * 1024,
  },
  'GET video/subtitle/list': {
    tag: 'video',
    summary: 'A video’s subtitle tracks by part, with the original file and its WebVTT.',
    permission: 'catalogue.read',
    resource: 'visibleVideo',
    query: S.subtitleListQuery,
    response: S.subtitleListResponse,
    cache: 'private',
  },
  'DELETE video/subtitle/delete': {
    tag: 'video',
    summary: 'Remove a subtitle track and its files.',
    permission: 'subtitle.edit',
    resource: 'subtitle',
    body: S.subtitleIdBody,
    response: S.subtitleDoneResponse,
    cache: 'no-store',
  },
  'GET video/danmaku/export': {
    tag: 'danmaku',
    summary:
      'A video’s danmaku as a file: Bilibili XML (format=xml), or ASS laid out as danmaku2ass does (format=ass); for anyone who may see the video, without sender ids.',
    permission: 'catalogue.read',
    resource: 'visibleVideo',
    query: S.danmakuExportQuery,
    response: S.danmakuExportResponse,
    cache: 'private',
  },
  'POST video/danmaku/import': {
    tag: 'danmaku',
    summary:
      'Add the danmaku of a Bilibili XML file (at most 5 MB) at their times, marked imported, without sender ids; past the pool’s cap the oldest make room. DOCTYPE and entity declarations are refused.',
    permission: 'subtitle.edit',
    resource: 'video',
    body: S.danmakuImportBody,
    response: S.danmakuImportResponse,
    cache: 'no-store',
    errors: ['DANMAKU_XML_MALFORMED'],
    maxBodyBytes: 11 * 1024 * 1024,
  },
});

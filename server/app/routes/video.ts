import { Hono, type Context } from 'hono';
import type { AppEnv } from '../create-app.ts';
import * as C from '../../../src/lib/api/contract.ts';
import { clientIp, getViewer, publicOrigin, requireMember, requireStaff, requireViewer } from '../auth.ts';
import { AppError } from '../errors.ts';
import { hlsPath } from '../../media/pipeline.ts';
import { grantUpload } from '../../media/image-service.ts';
import { validate } from '../validate.ts';
import { apiBasePath } from '../create-app.ts';
import { isStaff } from '../../auth/roles.ts';
import type { Looker } from '../../services/catalogue.ts';
import { coalescedBody } from '../../media/uploads.ts';
import { createDanmakuService, encodedAnswer, segmentCountOf } from '../../services/danmaku.ts';
import { preferredEncoding } from '../../http/content-encoding.ts';
import { createCommentService, parseCommentRoute } from '../../services/comments.ts';
import { hitRateLimit, LIMITS } from '../../services/rate-limit.ts';
import type { IncomingMessage } from 'node:http';
import { createBlockListService, isBlockedBy } from '../../services/block-lists.ts';

async function lookerOf(c: Context<AppEnv>): Promise<Looker | null> {
  const viewer = await getViewer(c);
  return viewer ? { uid: viewer.uid, isStaff: isStaff(viewer.roles) } : null;
}

/** A member who may upload: every member, or staff only when UPLOAD_ROLE=staff. */
async function requireUploader(c: Context<AppEnv>) {
  const viewer = await requireMember(c);
  if (c.get('deps').config.whoMayUpload === 'staff' && !isStaff(viewer.roles)) throw new AppError('FORBIDDEN');
  return viewer;
}

const danmakuService = (c: Context<AppEnv>) => createDanmakuService(c.get('deps').db);
const commentService = (c: Context<AppEnv>) => createCommentService(c.get('deps').db);

const blockLists = (c: Context<AppEnv>) => createBlockListService(c.get('deps').db);

/**
 * Who a list is for: a logged-in viewer with blocked or hidden users or tags gets a list without
 * them (`viewerUid` set), and that answer is personal; everyone else shares the public one.
 */
async function listViewer(c: Context<AppEnv>): Promise<{ viewerUid: number | null; personal: boolean; people: boolean }> {
  const viewer = await getViewer(c);
  const filters = await blockLists(c).filtersFor(viewer?.uid ?? null);
  return { viewerUid: filters.videos ? viewer!.uid : null, personal: filters.videos, people: filters.people };
}

/**
 * The video a member writes to (danmaku, comments, votes): visible to them, and not by an uploader who
 * blocked them. Checked before any rate limit, so a refusal costs nothing.
 */
async function videoToWriteTo(c: Context<AppEnv>, viewer: { uid: number; roles: string[] }, videoId: number) {
  const video = await c.get('catalogue').visibleVideo(videoId, { uid: viewer.uid, isStaff: isStaff(viewer.roles) });
  if (!video) throw new AppError('NOT_FOUND');
  if (await isBlockedBy(c.get('deps').db, video.uploaderUid, viewer.uid)) throw new AppError('BLOCKED_BY_UPLOADER');
  return video;
}

/** Public lists may sit in a shared cache briefly; personal answers never. */
function cacheFor(c: Context<AppEnv>, personal: boolean) {
  c.header('Cache-Control', personal ? 'private, no-store' : 'public, max-age=15');
  if (!personal) c.header('Vary', 'Cookie, X-Client-Language');
}

/** SPEC §7 "Video" family: catalogue, tags, review, uploads and their processing. */
export function videoRoutes() {
  const app = new Hono<AppEnv>();

  // ---- Catalogue ----
  app.get('/exists', async (c) => {
    const { videoId } = validate(C.videoExistsQuery, c.req.query());
    const body: C.VideoExistsResponse = { success: true, exist: await c.get('catalogue').videoExists(videoId) };
    return c.json(body);
  });
  app.get('/home', async (c) => {
    const page = validate(C.homeQuery, c.req.query());
    const { viewerUid, personal } = await listViewer(c);
    cacheFor(c, personal);
    return c.json({ success: true, ...(await c.get('catalogue').home({ ...page, viewerUid })) } satisfies C.VideoListResponse);
  });
  app.get('/category', async (c) => {
    const { category, ...page } = validate(C.categoryQuery, c.req.query());
    const { viewerUid, personal } = await listViewer(c);
    cacheFor(c, personal);
    return c.json({ success: true, ...(await c.get('catalogue').byCategory(category, { ...page, viewerUid })) } satisfies C.VideoListResponse);
  });
  app.get('/user', async (c) => {
    const { uid, ...page } = validate(C.userVideosQuery, c.req.query());
    const looker = await lookerOf(c);
    const { viewerUid, personal } = await listViewer(c);
    const flags = await blockLists(c).flags(looker?.uid ?? null, uid);
    cacheFor(c, looker?.uid === uid || personal || flags.isBlockedByOther);
    return c.json({ success: true, ...(await c.get('catalogue').byUploader(uid, looker, { ...page, viewerUid })), ...flags } satisfies C.VideoListResponse);
  });
  app.get('/search', async (c) => {
    const { keyword, ...page } = validate(C.searchQuery, c.req.query());
    const { viewerUid, personal } = await listViewer(c);
    cacheFor(c, personal);
    return c.json({ success: true, ...(await c.get('catalogue').search(keyword, { ...page, viewerUid })) } satisfies C.VideoListResponse);
  });
  app.post('/search/tag', async (c) => {
    const { tagId, ...page } = validate(C.tagSearchVideosBody, await c.req.json().catch(() => null));
    const { viewerUid } = await listViewer(c);
    return c.json({ success: true, ...(await c.get('catalogue').byTags(tagId, { ...page, viewerUid })) } satisfies C.VideoListResponse);
  });
  // video?videoId: pending videos only for their uploader and staff; the rest get 404.
  app.get('/', async (c) => {
    const { videoId } = validate(C.videoExistsQuery, c.req.query());
    const looker = await lookerOf(c);
    const video = await c.get('catalogue').video(videoId, looker);
    if (!video) throw new AppError('NOT_FOUND');
    cacheFor(c, !!looker || video.status !== 'approved');
    const body: C.VideoResponse = { success: true, video, ...(await blockLists(c).flags(looker?.uid ?? null, video.uploaderId)) };
    return c.json(body);
  });
  // One counted view per viewer per video per hour (the video page calls it once playback starts).
  app.post('/watch', async (c) => {
    const { videoId } = validate(C.videoIdBody, await c.req.json().catch(() => null));
    const viewer = await getViewer(c);
    const result = await c.get('videos').watch(videoId, viewer, { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? '' });
    return c.json({ success: true, ...result } satisfies C.WatchResponse);
  });

  // ---- Tags ----
  app.post('/tag/create', async (c) => {
    const viewer = await requireMember(c);
    const body = validate(C.tagCreateBody, await c.req.json().catch(() => null));
    const tagId = await c.get('catalogue').tags.create(viewer.uid, body);
    return c.json({ success: true, tagId } satisfies C.TagCreateResponse);
  });
  app.get('/tag/search', async (c) => {
    const { tagName } = validate(C.tagSearchQuery, c.req.query());
    cacheFor(c, false);
    return c.json({ success: true, result: await c.get('catalogue').tags.search(tagName) } satisfies C.TagSearchResponse);
  });
  app.post('/tag/get', async (c) => {
    const { tagId } = validate(C.tagIdsBody, await c.req.json().catch(() => null));
    return c.json({ success: true, result: await c.get('catalogue').tags.tagsById([...new Set(tagId)]) } satisfies C.TagListResponse);
  });

  // ---- Review ----
  app.get('/pending', async (c) => {
    await requireStaff(c);
    const page = validate(C.homeQuery, c.req.query());
    cacheFor(c, true);
    return c.json({ success: true, ...(await c.get('catalogue').pending(page)) } satisfies C.PendingVideosResponse);
  });
  app.post('/pending/approved', async (c) => {
    const viewer = await requireStaff(c);
    const { videoId } = validate(C.videoIdBody, await c.req.json().catch(() => null));
    await c.get('videos').approve(videoId, viewer.uid);
    c.get('logger').info('video approved', { videoId, by: viewer.uid });
    return c.json({ success: true });
  });
  app.delete('/delete', async (c) => {
    const viewer = await requireViewer(c);
    const { videoId } = validate(C.videoIdBody, await c.req.json().catch(() => null));
    await c.get('videos').remove(videoId, viewer);
    c.get('logger').info('video deleted', { videoId, by: viewer.uid });
    return c.json({ success: true });
  });

  // ---- Danmaku ----
  app.get('/danmaku', async (c) => {
    const { videoId, segment } = validate(C.danmakuQuery, c.req.query());
    const looker = await lookerOf(c);
    const video = await c.get('catalogue').visibleVideo(videoId, looker);
    if (!video) throw new AppError('NOT_FOUND');
    const segmentCount = segmentCountOf(video.durationMs);
    // A viewer who blocked people gets the pool without theirs: a personal answer, built each time.
    const { people } = await listViewer(c);
    if (people) {
      c.header('Cache-Control', 'private, no-store');
      const danmaku = await danmakuService(c).list(videoId, segment, looker!.uid);
      return c.json({ success: true, danmaku, segment, segmentSeconds: C.DANMAKU_SEGMENT_SECONDS, segmentCount } satisfies C.DanmakuListResponse);
    }
    // Everyone else receives the same pool (no sender ids in it), serialized once per change of
    // the segment (a busy one holds thousands) with an ETag; shared caches may keep it briefly.
    const answer = await danmakuService(c).listAnswer(videoId, segment, segmentCount);
    c.header('Cache-Control', video.status === 'approved' ? 'public, max-age=5' : 'private, no-store');
    c.header('Vary', 'Cookie, Accept-Encoding');
    c.header('ETag', answer.etag);
    if (c.req.header('If-None-Match')?.split(',').some((tag) => tag.trim() === answer.etag)) return c.body(null, 304);
    c.header('Content-Type', 'application/json');
    const encoding = preferredEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return c.body(answer.body);
    c.header('Content-Encoding', encoding);
    return c.body(await encodedAnswer(answer, encoding));
  });
  app.post('/danmaku/emit', async (c) => {
    const viewer = await requireMember(c);
    const body = validate(C.danmakuEmitBody, await c.req.json().catch(() => null));
    const video = await videoToWriteTo(c, viewer, body.videoId);
    const danmaku = await danmakuService(c).emit(viewer.uid, video.durationMs, body);
    return c.json({ success: true, danmaku } satisfies C.DanmakuEmitResponse);
  });

  // ---- Comments ----
  app.post('/comment/emit', async (c) => {
    const viewer = await requireMember(c);
    const body = validate(C.commentEmitBody, await c.req.json().catch(() => null));
    await videoToWriteTo(c, viewer, body.videoId);
    await hitRateLimit(c.get('deps').db, `comment:${viewer.uid}`, LIMITS.commentPerUser);
    const comment = await commentService(c).emit(viewer.uid, body.videoId, body.text);
    return c.json({ success: true, comment } satisfies C.CommentEmitResponse);
  });
  app.get('/comment', async (c) => {
    const { videoId, ...page } = validate(C.commentListQuery, c.req.query());
    const looker = await lookerOf(c);
    if (!(await c.get('catalogue').visibleVideo(videoId, looker))) throw new AppError('NOT_FOUND');
    // Always personal: votes are marked and block lists applied for the viewer.
    cacheFor(c, true);
    return c.json({ success: true, ...(await commentService(c).list(videoId, looker?.uid ?? null, page)) } satisfies C.CommentListResponse);
  });
  const vote = (kind: 1 | -1, cancel: boolean) => async (c: Context<AppEnv>) => {
    const viewer = await requireMember(c);
    const { videoId, id } = validate(C.commentVoteBody, await c.req.json().catch(() => null));
    // A new vote is a write like a comment; taking one's own vote back stays possible.
    if (!cancel) await videoToWriteTo(c, viewer, videoId);
    return c.json(await commentService(c).vote(viewer.uid, videoId, id, cancel ? 0 : kind, cancel ? kind : undefined));
  };
  app.post('/comment/upvote', vote(1, false));
  app.post('/comment/downvote', vote(-1, false));
  app.delete('/comment/upvote/cancel', vote(1, true));
  app.delete('/comment/downvote/cancel', vote(-1, true));
  app.delete('/comment/deleteSelfComment', async (c) => {
    const viewer = await requireViewer(c);
    const { videoId, commentRoute } = validate(C.commentDeleteBody, await c.req.json().catch(() => null));
    if (parseCommentRoute(commentRoute).videoId !== videoId) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'commentRoute', message: 'belongs to another video' }] });
    await commentService(c).remove(viewer.uid, commentRoute, false);
    return c.json({ success: true });
  });
  app.delete('/comment/adminDeleteComment', async (c) => {
    const viewer = await requireStaff(c);
    const { videoId, commentRoute } = validate(C.commentDeleteBody, await c.req.json().catch(() => null));
    if (parseCommentRoute(commentRoute).videoId !== videoId) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'commentRoute', message: 'belongs to another video' }] });
    await commentService(c).remove(viewer.uid, commentRoute, true);
    c.get('logger').info('comment deleted by staff', { commentRoute, by: viewer.uid });
    return c.json({ success: true });
  });

  // ---- Upload ----
  app.get('/cover/preUpload', async (c) => {
    const viewer = await requireUploader(c);
    const { signingSecret, config } = c.get('deps');
    const result = grantUpload(signingSecret, publicOrigin(c), apiBasePath(config.runtime.apiBase), 'cover', viewer.uid);
    c.header('Cache-Control', 'no-store');
    return c.json({ success: true, result } satisfies C.CoverPreUploadResponse);
  });
  app.post('/upload', async (c) => {
    const viewer = await requireUploader(c);
    const body = validate(C.videoUploadBody, await c.req.json().catch(() => null));
    const videoId = await c.get('videos').commit(viewer.uid, body);
    c.get('logger').info('video committed', { videoId, uid: viewer.uid, parts: body.videoPart.length });
    return c.json({ success: true, videoId } satisfies C.VideoUploadResponse);
  });
  // What became of an uploaded file (its owner only): probing, ready, or refused and why.
  app.get('/media/status', async (c) => {
    const viewer = await requireViewer(c);
    const { mediaId } = validate(C.mediaStatusQuery, c.req.query());
    const media = await c.get('deps').db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
    if (!media) throw new AppError('NOT_FOUND');
    if (media.uid !== viewer.uid) throw new AppError('FORBIDDEN');
    const body: C.MediaStatusResponse = {
      success: true, mediaId, status: media.status, reason: media.reason as C.MediaStatusResponse['reason'],
      duration: media.duration_ms, width: media.width, height: media.height, renditions: media.renditions,
      manifestUrl: media.renditions.length ? `/media/${hlsPath(mediaId)}/master.m3u8` : null,
      posterUrl: media.renditions.length ? `/media/${hlsPath(mediaId)}/poster.jpg` : null,
    };
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  });

  // Resumable uploads (tus 1.0): the upload server checks the login and the owner itself.
  // Chunk bodies are read from Node's request stream directly when there is one (see coalescedBody).
  const tus = (c: Context<AppEnv>) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const hasBody = c.req.method === 'PATCH' || (c.req.method === 'POST' && c.req.header('content-type') === 'application/offset+octet-stream');
    return c.get('deps').uploads.handle(c.req.raw, incoming && hasBody ? coalescedBody(incoming) : undefined);
  };
  app.all('/tus', tus);
  app.all('/tus/*', tus);
  return app;
}

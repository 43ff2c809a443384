/**
 * Every service of the API, built once by the composition root (server/main.ts) over one
 * database. Handlers receive these and never the database itself.
 */
import type { DatabaseKind } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Repositories } from '../repositories/index.ts';
import { createCatalogue } from './catalogue.ts';
import { createVideoService } from './videos.ts';
import { createDanmakuListCache, createDanmakuService } from './danmaku.ts';
import { createLiveDanmaku, type LiveDanmakuOptions } from './live-danmaku.ts';
import { createCommentService } from './comments.ts';
import { createReviewService } from './review.ts';
import { createLikeService } from './likes.ts';
import { NO_CONVERSATION_EVENTS, type ConversationEvents } from './conversation-events.ts';
import { createForViewer } from './for-viewer.ts';
import { createAccountFlows } from './account-flows.ts';
import { createDanmakuFiles } from './danmaku-files.ts';
import { createShareService } from './share.ts';
import { createBlockListService } from './block-lists.ts';
import { createHistoryService } from './history.ts';
import { createMediaService } from './media.ts';
import { createFollowService } from './follows.ts';
import { createCollectionService } from './collections.ts';
import { createPhotoService } from './photos.ts';
import type { PhotoFiles } from '../media/photo-files.ts';
import { createMediaTargets } from './media-targets.ts';
import { createAudioService } from './audio.ts';
import { createSubtitleService } from './subtitles.ts';
import { createReportService } from './reports.ts';
import { createModerationLogService } from './moderation-log.ts';
import * as accounts from './accounts.ts';
import * as invitations from './invitations.ts';
import * as profiles from './profiles.ts';
import * as credentials from './credentials.ts';
import * as userSettings from './user-settings.ts';
import * as verification from './verification.ts';
import * as totp from '../auth/totp.ts';
import * as secondFactor from '../auth/second-factor.ts';
import * as sessions from '../auth/sessions.ts';
import { viewerFromCookies } from './sessions.ts';
import { createRateLimitService } from './rate-limit.ts';
import { createJobsService } from './jobs.ts';
import { createFirstRun } from './first-run.ts';
import {
  grantUpload,
  processImage,
  readGrant,
  storeImage,
  UPLOAD_URL_LIFETIME_MS,
  type ImageKind,
  type UploadGrant,
} from '../media/image-service.ts';
import { DomainError } from '../domain/errors.ts';
import type { MediaStore } from '../media/media-store.ts';
import type { EventBus } from '../events/bus.ts';
import { createNotificationService, notifiedConversations, type NotificationOptions } from './notifications.ts';

/**
 * A module of functions that take the repositories first, with them given: the account modules
 * are written that way (plain functions compose inside one transaction); the root binds them.
 */
type BoundTo<M> = {
  [K in keyof M as M[K] extends (repositories: Repositories, ...rest: never[]) => unknown ? K : never]: M[K] extends (
    repositories: Repositories,
    ...rest: infer A
  ) => infer R
    ? (...args: A) => R
    : never;
};
function bindRepositories<M extends object>(repositories: Repositories, module: M): BoundTo<M> {
  const bound: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function' && value.length >= 1)
      bound[name] = (...args: unknown[]) => value(repositories, ...args);
  }
  return bound as BoundTo<M>;
}

export interface ServiceDeps {
  /** The process's one repository set (and so its one set of caches), built by the root and shared with the media server, the job worker, the admin socket and the demo seed. */
  repositories: Repositories;
  databaseKind: DatabaseKind;
  mailer: Mailer;
  media: MediaStore;
  /** Signs upload URLs of the image service. */
  signingSecret: string;
  buildId: string | null;
  /** The resumable upload endpoint (tus); its refusals carry the request's id. */
  uploads: { handle(req: Request, body?: ReadableStream<Uint8Array>, requestId?: string): Promise<Response> };
  /** Messages between the server processes of one site (server/events/bus.ts). */
  bus: EventBus;
  /** Live danmaku streams: heartbeat and per-viewer buffer (server/services/live-danmaku.ts). */
  live: Omit<LiveDanmakuOptions, 'logger'>;
  logger?: LiveDanmakuOptions['logger'];
  /** Uploaded photos' header checks and the render job's wake-up (server/media/photo-files.ts). */
  photoFiles: PhotoFiles;
  /** Notifications: the links in e-mails and the digests' pace (server/services/notifications.ts). */
  notifications: Pick<NotificationOptions, 'siteOrigin' | 'apiPrefix' | 'digestIntervalMs' | 'digestCheckMs'>;
  /** How long views and likes' notifications gather in memory before one write (HOT_COUNTER_WINDOW_MS). */
  hotCounterWindowMs?: number;
  /** Comments, replies, mentions and likes as they happen, besides notifications (default: none, server/services/conversation-events.ts). */
  conversationEvents?: ConversationEvents;
}

/** When this process started (the health answer's uptime). */
const started = Date.now();

export function createServices({
  repositories,
  databaseKind,
  mailer,
  media,
  signingSecret,
  buildId,
  uploads,
  photoFiles,
  bus,
  live: liveOptions,
  logger,
  notifications: notificationOptions,
  conversationEvents,
  hotCounterWindowMs,
}: ServiceDeps) {
  const rateLimits = createRateLimitService(repositories);
  const live = createLiveDanmaku(repositories, bus, { ...liveOptions, logger });
  const catalogue = createCatalogue(repositories);
  const audio = createAudioService(repositories, { media, logger, playWindowMs: hotCounterWindowMs });
  const photos = createPhotoService(repositories, photoFiles);
  const notifications = createNotificationService(repositories, {
    ...notificationOptions,
    bus,
    mailer,
    signingSecret,
    heartbeatMs: liveOptions.heartbeatMs,
    logger,
    likeWindowMs: hotCounterWindowMs,
  });
  // The one place conversations (comments, replies, mentions, likes) leave the services: each
  // becomes the recipient's notification here, and goes on to the bus (or the hooks given).
  const conversation = notifiedConversations(repositories, notifications, conversationEvents ?? NO_CONVERSATION_EVENTS);
  const targets = createMediaTargets({
    video: (id, looker) => catalogue.visibleVideo(id, looker),
    audio: (id, looker) => audio.visibleTrack(id, looker),
    photo: (id, looker) => photos.visibleTarget(id, looker),
  });
  const videos = createVideoService(repositories, { media, logger, viewWindowMs: hotCounterWindowMs });
  const danmaku = createDanmakuService(
    repositories,
    rateLimits,
    createDanmakuListCache(),
    (videoId, senderUid, sent) => void live.announce(videoId, senderUid, sent),
  );
  const comments = createCommentService(repositories, conversation, rateLimits);
  const likes = createLikeService(repositories, conversation);
  const subtitles = createSubtitleService(repositories, { media, logger });
  const accountService = {
    ...bindRepositories(repositories, accounts),
    sendLoginCode: (input: Parameters<typeof accounts.sendLoginCode>[2]) =>
      accounts.sendLoginCode(repositories, mailer, input),
  };
  const credentialService = bindRepositories(repositories, credentials);
  const totpService = bindRepositories(repositories, totp);
  const secondFactorService = bindRepositories(repositories, secondFactor);
  const sessionService = {
    ...bindRepositories(repositories, sessions),
    viewerFromCookies: (cookieHeader: string | null | undefined) => viewerFromCookies(repositories, cookieHeader),
  };
  const verificationService = {
    send: (input: Parameters<typeof verification.sendVerificationCode>[2]) =>
      verification.sendVerificationCode(repositories, mailer, input),
    sendReset: (input: Parameters<typeof verification.sendResetCode>[2]) =>
      verification.sendResetCode(repositories, mailer, input, (error) =>
        logger?.warn('the password reset mail could not be sent', { err: error }),
      ),
  };
  const blockLists = createBlockListService(repositories);
  return {
    catalogue,
    audio,
    /** What danmaku, comments and history can be on: each section's lookup of its own items. */
    targets,
    videos,
    review: createReviewService({ video: videos, audio, photo: photos }, (type, id, outcome) =>
      notifications.uploadReviewed(type, id, outcome),
    ),
    subtitles,
    /** A video's commit, then tracks for the subtitle streams its parts' transcodes already read (the others get theirs from their transcode). */
    videoUploads: {
      async commit(
        uid: number,
        input: Parameters<typeof videos.commit>[1],
        log: Pick<NonNullable<typeof logger>, 'warn'>,
      ): Promise<{ videoId: number; streamTracks: number }> {
        const videoId = await videos.commit(uid, input);
        const streamTracks = await subtitles.adoptStreamsOfVideo(videoId).catch((error: unknown) => {
          log.warn('subtitle streams not made into tracks', { videoId, err: error });
          return 0;
        });
        return { videoId, streamTracks };
      },
    },
    media: createMediaService(repositories),
    jobs: createJobsService(repositories),
    danmaku,
    danmakuFiles: createDanmakuFiles({ catalogue, danmaku }),
    share: createShareService({ catalogue, audio }),
    live,
    comments,
    likes,
    reports: createReportService(repositories, {
      targets,
      media: { video: videos, audio, photo: photos },
      removeComment: comments.remove,
      moderateDanmaku: danmaku.moderate,
      clearProfile: (uid, byUid) => profiles.clearProfile(repositories, uid, byUid),
      ban: (uid, by) => accounts.updateUserRoles(repositories, by, uid, ['blocked']),
      mailer,
      onMailFailed: (error) => logger?.warn('a report outcome mail could not be sent', { err: error }),
      notify: {
        reportFiled: async ({ reportId, reporterUid, title }) => {
          await notifications
            .notifyStaff({ kind: 'reportNew', actorUid: reporterUid, target: { type: 'report', id: reportId, title } })
            .catch((error) => logger?.warn('notifications: staff could not be told of a report', { err: error }));
        },
        reportResolved: ({ reportId, reporterUid, title }) =>
          notifications.notifyQuietly({
            kind: 'reportResolved',
            recipientUid: reporterUid,
            actorUid: null,
            target: { type: 'report', id: reportId, title },
          }),
      },
    }),
    moderationLog: createModerationLogService(repositories),
    blockLists,
    /** Reads that combine sections for one viewer (an upload with its likes and block flags, a member's uploads, the history). */
    forViewer: createForViewer({
      catalogue,
      audio,
      photos,
      likes,
      blockLists,
      danmaku,
      publicProfile: (uid, viewerUid) => profiles.publicProfile(repositories, uid, viewerUid),
    }),
    history: createHistoryService(repositories),
    follows: createFollowService(repositories, {
      audio,
      photos,
      onFollowed: (followerUid, followedUid) =>
        notifications.notifyQuietly({
          kind: 'follow',
          recipientUid: followedUid,
          actorUid: followerUid,
          target: { type: 'user', id: followerUid },
        }),
    }),
    collections: createCollectionService(repositories, { audio, photos }),
    photos,
    notifications,
    accounts: accountService,
    /** The account calls of several steps (login, reset codes, second factors on and off). */
    accountFlows: createAccountFlows({
      accounts: accountService,
      credentials: credentialService,
      secondFactor: secondFactorService,
      totp: totpService,
      sessions: sessionService,
      verification: verificationService,
      rateLimits,
    }),
    invitations: bindRepositories(repositories, invitations),
    /** The first-run page: the first administrator from the browser, with the token of the log. */
    firstRun: createFirstRun(repositories),
    profiles: bindRepositories(repositories, profiles),
    credentials: credentialService,
    userSettings: bindRepositories(repositories, userSettings),
    totp: totpService,
    secondFactor: secondFactorService,
    sessions: sessionService,
    verification: verificationService,
    rateLimits,
    images: {
      grant: (origin: string, apiPrefix: string, kind: ImageKind, uid: number) =>
        grantUpload(signingSecret, origin, apiPrefix, kind, uid),
      readGrant: (query: Record<string, string | undefined>) => readGrant(signingSecret, query),
      /**
       * Re-encodes and stores an image; a new avatar goes public at once and into the profile
       * review queue. A signed address is good for one image: the first upload that gets this far
       * claims it in the database (shared by every server process), a second is refused.
       */
      async store(grant: UploadGrant, data: Uint8Array): Promise<string> {
        const image = await processImage(grant.kind, data);
        const now = new Date();
        const claim = await repositories.rateLimits.countHit(
          `upload-grant:${grant.fileName}`,
          now,
          new Date(now.getTime() - UPLOAD_URL_LIFETIME_MS),
        );
        if (claim.count > 1) throw new DomainError('UPLOAD_EXPIRED');
        const url = await storeImage(media, grant.kind, grant.fileName, image);
        if (grant.kind === 'avatar') await profiles.setAvatar(repositories, grant.uid, url);
        return url;
      },
    },
    uploads,
    bus,
    /**
     * Writes what the hot counters hold in memory (views, plays, the likes' notifications; decision
     * 0023): the drain calls it once requests are done and before the database closes.
     */
    flushWrites: async () => {
      await Promise.all([videos.flushViews(), audio.flushPlays(), notifications.flushLikes()]);
    },
    health: {
      /** What `GET health` answers: whether the database answers, and since when this process runs. */
      async status() {
        const databaseOk = await repositories.ping();
        return {
          success: true as const,
          status: databaseOk ? ('ok' as const) : ('degraded' as const),
          database: databaseKind,
          databaseOk,
          buildId,
          uptimeSeconds: Math.round((Date.now() - started) / 1000),
        };
      },
    },
  };
}

export type Services = ReturnType<typeof createServices>;

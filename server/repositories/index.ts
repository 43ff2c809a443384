/**
 * Every repository over one database: the only modules that write SQL. Services receive these
 * (built once by the composition root through server/services/index.ts) and never the database.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { pingDatabase } from '../db/database.ts';
import { createUsersRepository } from './users.repository.ts';
import { createSessionsRepository } from './sessions.repository.ts';
import { createVerificationCodesRepository } from './verification-codes.repository.ts';
import { createSecondFactorsRepository } from './second-factors.repository.ts';
import { createInvitationsRepository } from './invitations.repository.ts';
import { createRateLimitsRepository } from './rate-limits.repository.ts';
import { createSettingsRepository } from './settings.repository.ts';
import { createVideosRepository } from './videos.repository.ts';
import { createTagsRepository } from './tags.repository.ts';
import { createMediaRepository } from './media.repository.ts';
import { createJobsRepository } from './jobs.repository.ts';
import { createHistoryRepository } from './history.repository.ts';
import { createDanmakuRepository } from './danmaku.repository.ts';
import { createCommentsRepository } from './comments.repository.ts';
import { createBlockListsRepository } from './block-lists.repository.ts';
import { createSecretsRepository } from './secrets.repository.ts';
import { createFollowsRepository } from './follows.repository.ts';
import { createCollectionsRepository } from './collections.repository.ts';
import { createAudioRepository } from './audio.repository.ts';
import { createPhotosRepository } from './photos.repository.ts';
import { createSubtitlesRepository } from './subtitles.repository.ts';
import { createNotificationsRepository } from './notifications.repository.ts';
import { createReportsRepository } from './reports.repository.ts';
import { createModerationLogRepository } from './moderation-log.repository.ts';
import { createLikesRepository } from './likes.repository.ts';
import { createUploadsRepository } from './uploads.repository.ts';
import { createRepositoryCaches, type RepositoryCaches } from './caches.ts';

function repositoriesOver(db: Kysely<Database>, caches: RepositoryCaches) {
  return {
    /** Whether the database answers (the health check). */
    ping: () => pingDatabase(db),
    // ---- catalogue: videos, tags, media, history ----
    videos: createVideosRepository(db, caches),
    tags: createTagsRepository(db),
    media: createMediaRepository(db),
    /** Resumable uploads: the tus endpoint's rows and the sweep of abandoned ones. */
    uploads: createUploadsRepository(db),
    jobs: createJobsRepository(db),
    history: createHistoryRepository(db),
    // ---- accounts: users, sessions, verification codes, second factors, invitations, rate limits ----
    users: createUsersRepository(db, caches),
    sessions: createSessionsRepository(db, caches),
    verificationCodes: createVerificationCodesRepository(db),
    secondFactors: createSecondFactorsRepository(db),
    invitations: createInvitationsRepository(db),
    rateLimits: createRateLimitsRepository(db),
    userSettings: createSettingsRepository(db),
    // ---- interaction: danmaku, comments, block lists, secrets ----
    danmaku: createDanmakuRepository(db, caches),
    comments: createCommentsRepository(db),
    blockLists: createBlockListsRepository(db),
    secrets: createSecretsRepository(db),
    // ---- feed: who follows whom ----
    follows: createFollowsRepository(db),
    // ---- collections: members' lists of videos ----
    collections: createCollectionsRepository(db, caches),
    // ---- audio: tracks, their tags and plays ----
    audio: createAudioRepository(db, caches),
    // ---- photos: posts of images ----
    photos: createPhotosRepository(db, caches),
    // ---- subtitles: tracks of videos' parts ----
    subtitles: createSubtitlesRepository(db),
    // ---- notifications: the message centre, its settings, e-mail digests ----
    notifications: createNotificationsRepository(db),
    // ---- moderation: members' reports and the log of staff actions ----
    reports: createReportsRepository(db),
    moderationLog: createModerationLogRepository(db),
    // ---- likes of videos, tracks and photo posts ----
    likes: createLikesRepository(db),
  };
}

export type Repositories = ReturnType<typeof repositoriesOver> & {
  /** Runs `work` in one transaction, with every repository bound to it. */
  transaction<T>(work: (repositories: Repositories) => Promise<T>): Promise<T>;
};

/**
 * `caches` are the server's own (server/main.ts); scripts, tests and benches that write nothing a
 * running server keeps may leave them out and get a set of their own. A transaction's
 * repositories share them, so what they change is forgotten and announced like any other change.
 */
export function createRepositories(
  db: Kysely<Database>,
  caches: RepositoryCaches = createRepositoryCaches(),
): Repositories {
  return {
    ...repositoriesOver(db, caches),
    transaction: (work) => db.transaction().execute((trx) => work(createRepositories(trx, caches))),
  };
}

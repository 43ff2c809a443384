/**
 * Reports (issue 28): a member reports a video, track, photo post, comment, danmaku or user;
 * staff resolve it through the services that own the item, and the reporters are told.
 *
 * What each action means per target type:
 * - dismiss: nothing changes;
 * - hide: taken out of public view but kept: a video, track or photo post goes back to the review
 *   queue (its uploader still sees it, staff can approve it again); a danmaku is hidden (kept for
 *   the record, shown to nobody); a comment is soft-deleted (its floor says so, as when staff
 *   delete one: comments have no other hidden state); a user's profile is reset to neutral values;
 * - delete: the item's soft delete (videos, tracks, posts, comments); a danmaku is removed; a
 *   user cannot be deleted (ACTION_NOT_APPLICABLE: ban them);
 * - ban: the author (uploader, commenter, danmaku sender, or the reported user) gets the role
 *   `blocked` through the role change rules (an administrator cannot ban staff), and the item is
 *   hidden as above.
 * One resolution closes every open report of the same item.
 */
import type { Repositories } from '../repositories/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Actor } from '../../src/lib/policy/policy.ts';
import type { MediaTargets } from './media-targets.ts';
import { Conflict, DomainError, NotFound } from '../domain/errors.ts';
import { recordStaffAction, decodeIdCursor, encodeIdCursor } from './moderation-log.ts';
import { translatorFor } from '../../src/lib/i18n/catalogs.ts';
import { CATALOG_LOCALES, type CatalogLocale } from '../../src/lib/i18n/locales.ts';
import type { MediaType } from '../../src/lib/api/contracts/common.constants.ts';
import type { ReportAction, ReportReason, ReportTargetType } from '../../src/lib/api/contracts/moderation.constants.ts';
import type { ReportContext, ReportItem, reportCreateBody } from '../../src/lib/api/contracts/moderation.ts';
import type { z } from 'zod';

type ReportRepositories = Pick<
  Repositories,
  'reports' | 'moderationLog' | 'users' | 'videos' | 'audio' | 'photos' | 'comments' | 'danmaku'
>;
type ReportRow = NonNullable<Awaited<ReturnType<Repositories['reports']['byId']>>>;

/** What the reports service acts through: the services that own each kind of item. */
export interface ReportActors {
  targets: MediaTargets;
  media: Record<
    MediaType,
    { hide(id: number, byUid: number): Promise<void>; remove(id: number, byUid: number): Promise<void> }
  >;
  removeComment(type: MediaType, route: string, byUid: number): Promise<void>;
  moderateDanmaku(danmakuId: number, how: 'hide' | 'delete', byUid: number): Promise<void>;
  clearProfile(uid: number, byUid: number): Promise<void>;
  /** Sets the member's roles to blocked, under the policy's role change rule for `by`. */
  ban(uid: number, by: Actor): Promise<unknown>;
  mailer: Mailer;
  onMailFailed(error: unknown): void;
  /** The message centre: staff hear of a new report, the reporter of its outcome. */
  notify: {
    reportFiled(report: { reportId: number; reporterUid: number; title: string }): Promise<void>;
    reportResolved(report: { reportId: number; reporterUid: number; title: string }): Promise<void>;
  };
}

/** How a report names its item in a notification: a title, a quoted text or a name. */
function reportTitle(snapshot: Record<string, unknown>, targetId: number): string {
  const named = snapshot.title ?? snapshot.text ?? snapshot.username;
  return typeof named === 'string' && named ? named : `#${targetId}`;
}

const THREAD_SPAN = 3;
const isMedia = (type: ReportTargetType): type is MediaType => type === 'video' || type === 'audio' || type === 'photo';
const catalogLocale = (language: string): CatalogLocale =>
  (CATALOG_LOCALES as readonly string[]).includes(language) ? (language as CatalogLocale) : 'zhs';

export function createReportService(repositories: ReportRepositories, actors: ReportActors) {
  const { reports } = repositories;

  async function mediaTitle(type: MediaType, id: number): Promise<{ title: string; status: string } | undefined> {
    if (type === 'video') return (await repositories.videos.thumbsOf([id]))[0];
    if (type === 'audio') return (await repositories.audio.thumbsOf([id]))[0];
    return (await repositories.photos.postsOf([id]))[0];
  }

  /** The item as the reporter may see it: its author and what to keep of it; null when it is not there for them. */
  async function reportable(
    type: ReportTargetType,
    id: number,
    reporter: Actor,
  ): Promise<{ ownerUid: number; snapshot: Record<string, unknown> } | null> {
    if (isMedia(type)) {
      const facts = await actors.targets.visible({ type, id }, reporter);
      return facts && { ownerUid: facts.uploaderUid, snapshot: { title: (await mediaTitle(type, id))?.title ?? '' } };
    }
    if (type === 'comment') {
      const comment = await repositories.comments.byIdAnyState(id);
      if (
        !comment ||
        comment.deleted_at ||
        !(await actors.targets.visible({ type: comment.target_type, id: comment.video_id }, reporter))
      )
        return null;
      return {
        ownerUid: comment.uid,
        snapshot: {
          text: comment.text,
          mediaType: comment.target_type,
          mediaId: comment.video_id,
          floor: comment.floor,
        },
      };
    }
    if (type === 'danmaku') {
      const danmaku = await repositories.danmaku.byId(id);
      if (
        !danmaku ||
        danmaku.hidden_at ||
        !(await actors.targets.visible({ type: danmaku.target_type, id: danmaku.video_id }, reporter))
      )
        return null;
      return {
        ownerUid: danmaku.uid,
        snapshot: { text: danmaku.text, time: danmaku.time, mediaType: danmaku.target_type, mediaId: danmaku.video_id },
      };
    }
    const profile = await repositories.users.profile(id);
    return profile ? { ownerUid: id, snapshot: { username: profile.username } } : null;
  }

  /** The reported item now, in its context (a danmaku with its moment, a comment with its thread). */
  async function contextOf(row: ReportRow): Promise<ReportContext> {
    const type = row.target_type as ReportTargetType;
    const id = Number(row.target_id);
    const snapshot = row.snapshot as Record<string, unknown>;
    if (isMedia(type)) {
      const media = await mediaTitle(type, id);
      return { visible: media?.status === 'approved', title: media?.title ?? String(snapshot.title ?? '') };
    }
    if (type === 'comment') {
      const comment = await repositories.comments.byIdAnyState(id);
      if (!comment) return { visible: false, text: String(snapshot.text ?? '') };
      const thread = await repositories.comments.threadAround(
        { type: comment.target_type, id: comment.video_id },
        comment.floor,
        THREAD_SPAN,
      );
      return {
        visible: !comment.deleted_at,
        text: comment.text,
        mediaType: comment.target_type,
        mediaId: Number(comment.video_id),
        floor: comment.floor,
        thread: thread.map((c) => ({
          floor: c.floor,
          username: c.username,
          text: c.text,
          deleted: !!c.deleted_at,
          reported: Number(c.id) === id,
        })),
      };
    }
    if (type === 'danmaku') {
      const danmaku = await repositories.danmaku.byId(id);
      return {
        visible: !!danmaku && !danmaku.hidden_at,
        text: danmaku?.text ?? String(snapshot.text ?? ''),
        time: danmaku?.time ?? Number(snapshot.time ?? 0),
        mediaType: (danmaku?.target_type ?? snapshot.mediaType) as MediaType,
        mediaId: Number(danmaku?.video_id ?? snapshot.mediaId),
      };
    }
    const profile = await repositories.users.profile(id);
    return { visible: !!profile, username: profile?.username ?? String(snapshot.username ?? '') };
  }

  async function itemOf(row: ReportRow): Promise<ReportItem> {
    return {
      reportId: Number(row.report_id),
      targetType: row.target_type as ReportTargetType,
      targetId: Number(row.target_id),
      targetOwnerUid: row.target_owner_uid === null ? null : Number(row.target_owner_uid),
      reason: row.reason as ReportReason,
      text: row.text,
      time: row.time,
      reporter: { uid: Number(row.reporter_uid), username: row.username },
      status: row.status,
      action: row.action as ReportAction | null,
      note: row.note,
      createdDateTime: new Date(row.created_at).getTime(),
      resolvedDateTime: row.resolved_at ? new Date(row.resolved_at).getTime() : null,
      context: await contextOf(row),
    };
  }

  /** Takes the item out of view (see the file's comment for what that is per type); an item already out of view is left so. */
  async function hide(row: ReportRow, byUid: number): Promise<void> {
    const type = row.target_type as ReportTargetType;
    const id = Number(row.target_id);
    const snapshot = row.snapshot as { mediaType?: MediaType; mediaId?: number; floor?: number };
    try {
      if (isMedia(type)) await actors.media[type].hide(id, byUid);
      else if (type === 'comment')
        await actors.removeComment(snapshot.mediaType ?? 'video', `${snapshot.mediaId}.${snapshot.floor}`, byUid);
      else if (type === 'danmaku') await actors.moderateDanmaku(id, 'hide', byUid);
      else await actors.clearProfile(id, byUid);
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }

  async function remove(row: ReportRow, byUid: number): Promise<void> {
    const type = row.target_type as ReportTargetType;
    const id = Number(row.target_id);
    if (type === 'user') throw new DomainError('ACTION_NOT_APPLICABLE');
    try {
      if (isMedia(type)) await actors.media[type].remove(id, byUid);
      else if (type === 'danmaku') await actors.moderateDanmaku(id, 'delete', byUid);
      else await hide(row, byUid); // a comment's deletion is its soft delete
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }

  /** Tells a reporter what became of their report (the action taken), by e-mail in their language. */
  async function tellReporterOfOutcome(
    reporterUid: number,
    report: { targetType: string; action: ReportAction },
  ): Promise<void> {
    const to = await repositories.users.mailTo(reporterUid);
    if (!to?.email) return;
    const { t } = translatorFor(catalogLocale(to.interface_language));
    await actors.mailer
      .send({
        to: to.email,
        subject: t('moderation.mail.subject'),
        text: t('moderation.mail.body', {
          username: to.username,
          target: t(`moderation.targets.${report.targetType}`),
          outcome: t(`moderation.mail.outcome.${report.action}`),
        }),
      })
      .catch(actors.onMailFailed);
  }

  return {
    async create(reporter: Actor, input: z.output<typeof reportCreateBody>): Promise<number> {
      const found = await reportable(input.targetType, input.targetId, reporter);
      if (!found) throw new NotFound();
      if (found.ownerUid === reporter.uid) throw new DomainError('CANNOT_REPORT_OWN');
      const reportId = await reports.insert({
        reporterUid: reporter.uid,
        targetType: input.targetType,
        targetId: input.targetId,
        targetOwnerUid: found.ownerUid,
        reason: input.reason,
        text: input.text,
        time: input.time ?? null,
        snapshot: found.snapshot,
      });
      if (reportId === null) throw new Conflict('ALREADY_REPORTED');
      await actors.notify.reportFiled({
        reportId,
        reporterUid: reporter.uid,
        title: reportTitle(found.snapshot, input.targetId),
      });
      return reportId;
    },

    async list(query: {
      status?: 'open' | 'resolved';
      targetType?: ReportTargetType;
      cursor?: string;
      pageSize: number;
    }) {
      const rows = await reports.page(
        { beforeId: decodeIdCursor(query.cursor), status: query.status, targetType: query.targetType },
        query.pageSize + 1,
      );
      const page = rows.slice(0, query.pageSize);
      const last = page.at(-1);
      return {
        reports: await Promise.all(page.map(itemOf)),
        nextCursor: rows.length > query.pageSize && last ? encodeIdCursor(Number(last.report_id)) : null,
      };
    },

    /**
     * Resolves a report and every other open report of the same item; answers how many were
     * closed. A ban is a role change: the policy's rule for `by` decides (an administrator cannot ban staff).
     */
    async resolve(by: Actor, input: { reportId: number; action: ReportAction; note: string }): Promise<number> {
      const byUid = by.uid;
      const row = await reports.byId(input.reportId);
      if (!row) throw new NotFound();
      if (row.status !== 'open') throw new Conflict('ALREADY_RESOLVED');
      if (input.action === 'hide') await hide(row, byUid);
      if (input.action === 'delete') await remove(row, byUid);
      if (input.action === 'ban') {
        if (row.target_owner_uid === null) throw new DomainError('ACTION_NOT_APPLICABLE');
        await actors.ban(Number(row.target_owner_uid), by);
        if (row.target_type !== 'user') await hide(row, byUid);
      }
      const closed = await reports.resolveTarget(
        { type: row.target_type, id: Number(row.target_id) },
        { action: input.action, note: input.note, byUid },
      );
      if (!closed.length) throw new Conflict('ALREADY_RESOLVED');
      await recordStaffAction(repositories, {
        actorUid: byUid,
        action: 'report.resolve',
        targetType: row.target_type,
        targetId: Number(row.target_id),
        details: { reportIds: closed.map((r) => Number(r.report_id)), action: input.action, note: input.note },
      });
      const title = reportTitle(row.snapshot as Record<string, unknown>, Number(row.target_id));
      for (const report of closed) {
        await actors.notify.reportResolved({
          reportId: Number(report.report_id),
          reporterUid: Number(report.reporter_uid),
          title,
        });
        await tellReporterOfOutcome(Number(report.reporter_uid), { targetType: row.target_type, action: input.action });
      }
      return closed.length;
    },
  };
}

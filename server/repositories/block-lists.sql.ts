/**
 * SQL fragments over the block lists that other repositories' queries embed: the one condition
 * every video list applies, and the senders a viewer blocked.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * SQL over `videos as v`: true when this viewer has not blocked or hidden the uploader and has
 * blocked none of the video's tags. The one condition every video list applies.
 */
export function videoVisibleToViewer(viewerUid: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM block_entries be WHERE be.uid = ${viewerUid} AND (
    (be.type IN ('block', 'hide') AND be.target_uid = v.uploader_uid)
    OR (be.type = 'tag' AND be.tag_id IN (SELECT vt.tag_id FROM video_tags vt WHERE vt.video_id = v.video_id))))`;
}

/** SQL: the uids this viewer blocked (their danmaku and comments are left out for them). */
export function usersBlockedBy(viewerUid: number): RawBuilder<unknown> {
  return sql`(SELECT be.target_uid FROM block_entries be WHERE be.uid = ${viewerUid} AND be.type = 'block')`;
}

/** SQL: `column` is not the uid of someone this viewer blocked. */
export function notSentByBlockedOf(column: string, viewerUid: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} NOT IN ${usersBlockedBy(viewerUid)}`;
}

/** SQL over `audio_tracks as a`: the same condition for tracks (uploader not blocked or hidden, no blocked tag). */
export function audioVisibleToViewer(viewerUid: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM block_entries be WHERE be.uid = ${viewerUid} AND (
    (be.type IN ('block', 'hide') AND be.target_uid = a.uploader_uid)
    OR (be.type = 'tag' AND be.tag_id IN (SELECT t.tag_id FROM audio_tags t WHERE t.audio_id = a.audio_id))))`;
}

/** SQL over `photos as p`: the same condition for photo posts (their uploader, their tags). */
export function photoVisibleToViewer(viewerUid: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM block_entries be WHERE be.uid = ${viewerUid} AND (
    (be.type IN ('block', 'hide') AND be.target_uid = p.uploader_uid)
    OR (be.type = 'tag' AND be.tag_id IN (SELECT pt.tag_id FROM photo_tags pt WHERE pt.photo_id = p.photo_id))))`;
}

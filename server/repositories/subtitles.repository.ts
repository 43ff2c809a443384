/** Subtitle tracks of videos' parts (0027): their rows; the files are the media store's. */
import type { Insertable, Kysely } from 'kysely';
import type { Database, StreamSubtitles, VideoSubtitlesTable } from '../db/schema.ts';

const COLUMNS = [
  'subtitle_id',
  'video_id',
  'part_index',
  'media_id',
  'language',
  'label',
  'format',
  'fallback_font',
  'font_names',
] as const;

export function createSubtitlesRepository(db: Kysely<Database>) {
  return {
    /** A video's tracks, by part then in the order they were added. */
    listOfVideo(videoId: number) {
      return db
        .selectFrom('video_subtitles')
        .select(COLUMNS)
        .where('video_id', '=', videoId)
        .orderBy('part_index')
        .orderBy('subtitle_id')
        .execute();
    },
    /** The tracks of one media item (a part), as its master playlist lists them. */
    listOfMedia(mediaId: string) {
      return db
        .selectFrom('video_subtitles')
        .select(['subtitle_id as id', 'language', 'label'])
        .where('media_id', '=', mediaId)
        .orderBy('subtitle_id')
        .execute();
    },
    find(subtitleId: number) {
      return db.selectFrom('video_subtitles').select(COLUMNS).where('subtitle_id', '=', subtitleId).executeTakeFirst();
    },
    /** The media item of a video's part (0-based), whose folder holds the part's files. */
    async partMedia(videoId: number, partIndex: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('video_parts')
        .select('media_id')
        .where('video_id', '=', videoId)
        .where('part_index', '=', partIndex)
        .executeTakeFirst();
      return row?.media_id;
    },
    async countOfPart(videoId: number, partIndex: number): Promise<number> {
      const row = await db
        .selectFrom('video_subtitles')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('video_id', '=', videoId)
        .where('part_index', '=', partIndex)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    insert(row: Insertable<VideoSubtitlesTable>) {
      return db.insertInto('video_subtitles').values(row).returning(COLUMNS).executeTakeFirstOrThrow();
    },
    async remove(subtitleId: number): Promise<void> {
      await db.deleteFrom('video_subtitles').where('subtitle_id', '=', subtitleId).execute();
    },

    // ---- Tracks and fonts from an upload's own streams (0028) ----
    /** What the transcode found in the file's subtitle and attachment streams (written again with the adoption's notes). */
    async recordStreams(mediaId: string, found: StreamSubtitles): Promise<void> {
      await db
        .updateTable('media')
        .set({ stream_subtitles: JSON.stringify(found) })
        .where('media_id', '=', mediaId)
        .execute();
    },
    /**
     * Claims, once, the making of a media item's stream tracks: only when the streams were read
     * and the media is a video's part (the transcode and the commit each try; whichever comes
     * last wins). Answers the part and what was found, or undefined.
     */
    async claimStreams(
      mediaId: string,
    ): Promise<{ videoId: number; partIndex: number; found: StreamSubtitles } | undefined> {
      const part = await db
        .selectFrom('video_parts')
        .select(['video_id', 'part_index'])
        .where('media_id', '=', mediaId)
        .executeTakeFirst();
      if (!part) return undefined;
      const row = await db
        .updateTable('media')
        .set({ stream_subtitles_adopted: true })
        .where('media_id', '=', mediaId)
        .where('stream_subtitles', 'is not', null)
        .where('stream_subtitles_adopted', '=', false)
        .returning('stream_subtitles')
        .executeTakeFirst();
      return row?.stream_subtitles
        ? { videoId: part.video_id, partIndex: part.part_index, found: row.stream_subtitles }
        : undefined;
    },
    /** The media items of a video's parts. */
    async mediaOfVideo(videoId: number): Promise<string[]> {
      return (
        await db
          .selectFrom('video_parts')
          .select('media_id')
          .where('video_id', '=', videoId)
          .orderBy('part_index')
          .execute()
      ).map((r) => r.media_id);
    },
    /** The streams found in these media items (fonts and notes), where they were read. */
    async streamsOfMedia(mediaIds: readonly string[]): Promise<Map<string, StreamSubtitles>> {
      if (!mediaIds.length) return new Map();
      const rows = await db
        .selectFrom('media')
        .select(['media_id', 'stream_subtitles'])
        .where('media_id', 'in', [...mediaIds])
        .where('stream_subtitles', 'is not', null)
        .execute();
      return new Map(rows.map((r) => [r.media_id, r.stream_subtitles!]));
    },
    /** The stream notes of these videos' parts, for the processing report of "my videos". */
    streamsOfVideos(videoIds: readonly number[]) {
      if (!videoIds.length) return Promise.resolve([]);
      return db
        .selectFrom('video_parts as p')
        .innerJoin('media as m', 'm.media_id', 'p.media_id')
        .select(['p.video_id', 'p.part_index', 'm.stream_subtitles'])
        .where('p.video_id', 'in', [...videoIds])
        .where('m.stream_subtitles', 'is not', null)
        .orderBy('p.video_id')
        .orderBy('p.part_index')
        .execute();
    },
  };
}

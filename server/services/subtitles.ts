/**
 * Subtitle tracks of videos' parts (issue 29): parsed on the way in (a malformed file is refused
 * with the parser's reason), stored as the original file and a WebVTT made from it under the
 * part's media folder, where the media access rule lets them be read exactly while the video
 * may be seen (public once approved; uploader and staff while pending).
 */
import type { Repositories } from '../repositories/index.ts';
import type { MediaStore } from '../media/media-store.ts';
import { hlsPath } from '../media/paths.ts';
import { masterPlaylistOf, subtitlePlaylist } from '../media/hls.ts';
import { MalformedSubtitle, readSubtitle, toWebVtt, type ReadSubtitle } from '../media/subtitle-formats.ts';
import { charactersOf, fallbackFontFor } from '../media/subtitle-fonts.ts';
import type { Logger } from '../logger.ts';
import { Conflict, DomainError, NotFound } from '../domain/errors.ts';
import {
  SUBTITLES_PER_PART,
  type StreamNoteCode,
  type SubtitleFormat,
} from '../../src/lib/api/contracts/subtitle.constants.ts';
import { subtitleCreateBody, type Subtitle } from '../../src/lib/api/contracts/subtitle.ts';
import type { StreamNote, StreamSubtitles } from '../db/schema.ts';

type SubtitleRow = Awaited<ReturnType<Repositories['subtitles']['find']>> & object;

/** Where a track's files live: `hls/{mediaId}/subtitles/{id}/original.{format}` and `…/webvtt.vtt`. */
export const subtitleFolder = (mediaId: string, subtitleId: number) => `${hlsPath(mediaId)}/subtitles/${subtitleId}`;
const originalName = (format: SubtitleFormat) => `original.${format}`;
const WEBVTT_NAME = 'webvtt.vtt';
/** An ASS track's own cut of the fallback font (server/media/subtitle-fonts.ts). */
const FALLBACK_FONT_NAME = 'fallback.ttf';
/** The track's media playlist, which the part's master playlist names (`subtitles/{id}/index.m3u8`). */
const PLAYLIST_NAME = 'index.m3u8';

/**
 * The fonts attached to a part's uploaded file (MKV attachments, kept under the part's `fonts/`)
 * that an ASS track names: libass is handed only these (and the track's cut of the fallback),
 * rather than copying, opening and searching every font the file carried. A track or font whose
 * names were not read (made before 0036) takes them all, as before.
 */
function fontsNamedBy(row: SubtitleRow, streams?: StreamSubtitles): string[] {
  const fonts = streams?.fonts ?? [];
  if (!row.font_names) return fonts;
  const wanted = new Set(row.font_names);
  return fonts.filter((file) => {
    const names = streams?.fontNames?.[file];
    return !names || names.some((name) => wanted.has(name));
  });
}

/**
 * A track as the API lists it. An ASS track carries the fonts it names among those attached to
 * its part's uploaded file (fontsNamedBy), which the ASS renderer loads with it.
 */
export function subtitleOf(row: SubtitleRow, streams?: StreamSubtitles): Subtitle {
  const folder = `/media/${subtitleFolder(row.media_id, row.subtitle_id)}`;
  return {
    id: row.subtitle_id,
    part: row.part_index + 1,
    language: row.language,
    label: row.label,
    format: row.format,
    url: `${folder}/${originalName(row.format)}`,
    vttUrl: `${folder}/${WEBVTT_NAME}`,
    fonts:
      row.format === 'ass'
        ? fontsNamedBy(row, streams).map((name) => `/media/${hlsPath(row.media_id)}/fonts/${name}`)
        : [],
    fallbackFont: row.format === 'ass' && row.fallback_font ? `${folder}/${FALLBACK_FONT_NAME}` : null,
  };
}

/** A stream note as the processing report lists it (`part` counted from 1). */
export interface PartStreamNote {
  part: number;
  stream: number;
  code: StreamNoteCode;
  codec: string | null;
}

/** The processing report's stream notes of each of these videos, by part (for "my videos"). */
export async function streamNotesOfVideos(
  subtitles: Repositories['subtitles'],
  videoIds: readonly number[],
): Promise<Map<number, PartStreamNote[]>> {
  const byVideo = new Map<number, PartStreamNote[]>();
  for (const row of await subtitles.streamsOfVideos(videoIds)) {
    const notes = byVideo.get(row.video_id) ?? [];
    byVideo.set(row.video_id, notes);
    for (const note of row.stream_subtitles?.notes ?? [])
      notes.push({
        part: row.part_index + 1,
        stream: note.stream,
        code: note.code as StreamNoteCode,
        codec: note.codec ?? null,
      });
  }
  return byVideo;
}

export interface NewSubtitle {
  videoId: number;
  part: number;
  language: string;
  label: string;
  format: SubtitleFormat;
  text: string;
}

export function createSubtitleService(
  { subtitles, media: mediaRows }: Repositories,
  { media, logger }: { media: MediaStore; logger?: Pick<Logger, 'warn'> },
) {
  /**
   * The part's master playlist again, with its tracks as WebVTT renditions (once the part has a
   * published rung; until then the pipeline writes it, with the tracks, as each rung is done).
   */
  async function relistInMaster(mediaId: string, row?: Awaited<ReturnType<typeof mediaRows.byId>>): Promise<void> {
    row ??= await mediaRows.byId(mediaId);
    if (!row?.renditions.length || row.kind !== 'video') return;
    await media.put(`${hlsPath(mediaId)}/master.m3u8`, masterPlaylistOf(row, await subtitles.listOfMedia(mediaId)));
  }

  /** Adds a track (the caller was authorised on the video): parsed first, stored with its WebVTT. */
  async function create(
    input: NewSubtitle,
    createdBy: number | null,
    source: 'member' | 'stream' = 'member',
  ): Promise<Subtitle> {
    const partIndex = input.part - 1;
    const mediaId = await subtitles.partMedia(input.videoId, partIndex);
    if (!mediaId) throw new NotFound();
    if ((await subtitles.countOfPart(input.videoId, partIndex)) >= SUBTITLES_PER_PART)
      throw new Conflict('SUBTITLES_LIMIT');
    let read: ReadSubtitle;
    try {
      read = await readSubtitle(input.text, input.format);
    } catch (error) {
      if (error instanceof MalformedSubtitle)
        throw new DomainError('SUBTITLE_MALFORMED', { issues: [{ path: 'text', message: error.message }] });
      throw error;
    }
    const { cues } = read;
    // libass's fallback for this track: only the characters its lines use. Without it (a failure
    // of the cut) the player loads the whole fallback, as for tracks made before.
    const fallbackFont =
      input.format === 'ass'
        ? await fallbackFontFor(charactersOf(cues)).catch((error: unknown) => {
            logger?.warn('fallback font not cut, the track uses the whole one', { videoId: input.videoId, err: error });
            return null;
          })
        : null;
    const row = await subtitles.insert({
      video_id: input.videoId,
      part_index: partIndex,
      media_id: mediaId,
      language: input.language,
      label: input.label,
      format: input.format,
      source,
      created_by: createdBy,
      fallback_font: fallbackFont !== null,
      font_names: input.format === 'ass' ? read.fonts : null,
    });
    const folder = subtitleFolder(mediaId, row.subtitle_id);
    try {
      await media.put(`${folder}/${originalName(input.format)}`, input.text);
      await media.put(`${folder}/${WEBVTT_NAME}`, toWebVtt(cues));
      if (fallbackFont)
        await media.put(
          `${folder}/${FALLBACK_FONT_NAME}`,
          Buffer.from(fallbackFont.buffer, fallbackFont.byteOffset, fallbackFont.byteLength),
        );
      const part = await mediaRows.byId(mediaId);
      await media.put(`${folder}/${PLAYLIST_NAME}`, subtitlePlaylist(part?.duration_ms ?? 0, WEBVTT_NAME));
      await relistInMaster(mediaId, part);
    } catch (error) {
      await subtitles.remove(row.subtitle_id);
      await media.removeAll(folder).catch(() => {});
      throw error;
    }
    return subtitleOf(row, (await subtitles.streamsOfMedia([mediaId])).get(mediaId));
  }

  const service = {
    /** The video a track belongs to (read before the caller is authorised on it). */
    async videoOf(subtitleId: number): Promise<number> {
      const row = await subtitles.find(subtitleId);
      if (!row) throw new NotFound();
      return row.video_id;
    },

    async list(videoId: number): Promise<Subtitle[]> {
      const rows = await subtitles.listOfVideo(videoId);
      const streams = await subtitles.streamsOfMedia([
        ...new Set(rows.filter((r) => r.format === 'ass').map((r) => r.media_id)),
      ]);
      return rows.map((row) => subtitleOf(row, streams.get(row.media_id)));
    },

    create,

    /**
     * The text subtitle streams of a part's uploaded file become its tracks (source 'stream'),
     * each validated by the same contract as video/subtitle/create and made by the same path; a
     * stream refused there is noted for the uploader and the others still made. Runs once per
     * media item, when both the streams are read and the media is a video's part (the transcode
     * and the commit each call it). Answers how many tracks were made.
     */
    async adoptStreams(mediaId: string): Promise<number> {
      const claim = await subtitles.claimStreams(mediaId);
      if (!claim) return 0;
      const { videoId, partIndex, found } = claim;
      const notes: StreamNote[] = [...found.notes];
      let made = 0;
      for (const track of found.tracks) {
        const text = (await media.read(`${hlsPath(mediaId)}/${track.file}`))?.toString('utf8') ?? '';
        const input = subtitleCreateBody.safeParse({
          videoId,
          part: partIndex + 1,
          language: track.language,
          label: track.label,
          format: track.format,
          text,
        });
        try {
          if (!input.success) throw new DomainError('SUBTITLE_MALFORMED');
          await create(input.data, null, 'stream');
          made++;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          notes.push({
            stream: track.stream,
            code: error.code === 'SUBTITLES_LIMIT' ? 'SUBTITLES_LIMIT' : 'SUBTITLE_MALFORMED',
            codec: track.format,
          });
        }
      }
      await subtitles.recordStreams(mediaId, {
        ...found,
        tracks: [],
        notes: notes.sort((a, b) => a.stream - b.stream),
      });
      await media.removeAll(`${hlsPath(mediaId)}/streams`);
      return made;
    },

    /** adoptStreams for each part of a newly committed video (a part whose streams are not read yet is adopted by its transcode). */
    async adoptStreamsOfVideo(videoId: number): Promise<number> {
      let made = 0;
      for (const mediaId of await subtitles.mediaOfVideo(videoId)) made += await service.adoptStreams(mediaId);
      return made;
    },

    async remove(subtitleId: number): Promise<void> {
      const row = await subtitles.find(subtitleId);
      if (!row) throw new NotFound();
      await subtitles.remove(subtitleId);
      await relistInMaster(row.media_id);
      await media.removeAll(subtitleFolder(row.media_id, row.subtitle_id));
    },
  };
  return service;
}

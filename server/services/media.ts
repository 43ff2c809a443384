import type { Repositories } from '../repositories/index.ts';
import type { MediaStatusResponse } from '../../src/lib/api/contracts/upload.ts';
import type { StreamNoteCode } from '../../src/lib/api/contracts/subtitle.constants.ts';
import { NotFound } from '../domain/errors.ts';
import { hlsPath } from '../media/paths.ts';

/** Uploaded files as their uploader follows them: processing state, probe results, renditions. */
export function createMediaService(repositories: Pick<Repositories, 'media'>) {
  return {
    /** The file's state and its owner (the caller checks the owner against the policy). */
    async status(mediaId: string): Promise<{ ownerUid: number; answer: Omit<MediaStatusResponse, 'success'> }> {
      const media = await repositories.media.byId(mediaId);
      if (!media) throw new NotFound();
      const published = media.renditions.length > 0;
      return {
        ownerUid: media.uid,
        answer: {
          mediaId,
          status: media.status,
          reason: media.reason as MediaStatusResponse['reason'],
          duration: media.duration_ms,
          width: media.width,
          height: media.height,
          renditions: media.renditions,
          manifestUrl: published ? `/media/${hlsPath(mediaId)}/master.m3u8` : null,
          // A track's picture is its embedded cover, when it has one.
          posterUrl: !published
            ? null
            : media.kind !== 'audio'
              ? `/media/${hlsPath(mediaId)}/poster.jpg`
              : media.cover_file
                ? `/media/${hlsPath(mediaId)}/${media.cover_file}`
                : null,
          subtitleNotes: (media.stream_subtitles?.notes ?? []).map((note) => ({
            stream: note.stream,
            code: note.code as StreamNoteCode,
            codec: note.codec ?? null,
          })),
        },
      };
    },
  };
}

import { z } from 'zod';
import { defineRoutes } from '../route.ts';
import * as C from '../contracts/upload.ts';

/** tus answers carry no JSON: the headers (Location, Upload-Offset, Stream-Media-Id) are the answer. */
const tusAnswer = z.null().describe('No body: tus headers');
const resume = (summary: string) =>
  ({ tag: 'upload', summary, permission: 'upload.resume', raw: 'tus', response: tusAnswer }) as const;

/** SPEC §7 uploads: the resumable file upload (tus), the cover, the commit and the processing state. */
export const uploadRoutes = defineRoutes({
  'GET video/cover/preUpload': {
    tag: 'upload',
    summary: 'A signed address to upload a cover to (images/upload), valid for a while.',
    permission: 'video.upload',
    response: C.coverPreUploadResponse,
    cache: 'no-store',
  },
  'POST video/upload': {
    tag: 'upload',
    summary:
      'Commit a video: its uploaded parts (probed, not refused, not used elsewhere), metadata and tags; it waits for review.',
    permission: 'video.upload',
    body: C.videoUploadBody,
    response: C.videoUploadResponse,
    errors: ['MEDIA_NOT_READY', 'MEDIA_REJECTED', 'CONFLICT'],
    // A 2,000-character description, titles, parts and tags.
    maxBodyBytes: 64 * 1024,
  },
  'GET video/media/status': {
    tag: 'upload',
    summary: 'What became of one’s uploaded file: probing, transcoding, ready, or refused and why.',
    permission: 'media.status',
    resource: 'media',
    query: C.mediaStatusQuery,
    response: C.mediaStatusResponse,
    cache: 'no-store',
  },
  'POST video/tus': {
    tag: 'upload',
    summary: 'Create a resumable upload (tus creation; metadata `name`, `maxDurationSeconds`, `expiry`).',
    permission: 'video.upload',
    raw: 'tus',
    response: tusAnswer,
    errors: ['PAYLOAD_TOO_LARGE', 'TOO_MANY_UPLOADS'],
  },
  // HEAD (the offset to resume from) is answered by this GET entry: Hono routes HEAD as GET.
  'GET video/tus/:uploadId': resume('The upload’s offset (HEAD), its owner only.'),
  'PATCH video/tus/:uploadId': resume(
    'The next bytes of one’s upload at its offset; the last ones answer the media id in Stream-Media-Id.',
  ),
  'DELETE video/tus/:uploadId': resume('Abandon one’s unfinished upload (tus termination).'),
});

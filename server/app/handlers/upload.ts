import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { HandlerContext, HandlerSet } from '../mount-routes.ts';
import type { Services } from '../../services/index.ts';
import { coalescedBody } from '../../media/uploads.ts';
import { logged } from './logged.ts';

/**
 * A request of the resumable upload protocol (tus 1.0), answered by the upload server, which
 * checks the login and the owner itself. Chunk bodies are read from Node's request stream
 * directly when there is one (see coalescedBody).
 */
export function tusAnswer(services: Services, c: Context<AppEnv>): Promise<Response> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const hasBody =
    c.req.method === 'PATCH' ||
    (c.req.method === 'POST' && c.req.header('content-type') === 'application/offset+octet-stream');
  return services.uploads.handle(
    c.req.raw,
    incoming && hasBody ? coalescedBody(incoming) : undefined,
    c.get('requestId'),
  );
}
const tus = async (_input: undefined, { services, c }: HandlerContext) => tusAnswer(services, c);

/** SPEC §7 uploads: the file (tus), the cover, the commit, and what became of the file. */
export const uploadHandlers: HandlerSet<'video/cover/' | 'video/upload' | 'video/media/' | 'video/tus'> = {
  'GET video/cover/preUpload': async (_input, { services, actor, origin, apiPrefix }) => ({
    success: true,
    result: services.images.grant(origin, apiPrefix, 'cover', actor.uid),
  }),
  'POST video/upload': async (body, { services, actor, logger }) =>
    logged(
      logger,
      'video committed',
      services.videoUploads.commit(actor.uid, body, logger),
      ({ videoId, streamTracks }) => ({ videoId, uid: actor.uid, parts: body.videoPart.length, streamTracks }),
    ).then(({ videoId }) => ({ success: true, videoId })),
  // The file's owner only (the entry's resource).
  'GET video/media/status': async (_input, { resource }) => ({ success: true, ...resource.answer }),
  'POST video/tus': tus,
  'GET video/tus/:uploadId': tus,
  'PATCH video/tus/:uploadId': tus,
  'DELETE video/tus/:uploadId': tus,
};

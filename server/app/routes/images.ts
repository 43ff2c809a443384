import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../create-app.ts';
import type { ImageUploadResponse } from '../../../src/lib/api/contract.ts';
import { AppError } from '../errors.ts';
import { MAX_IMAGE_BYTES, processImage, storeImage, verifyGrant } from '../../media/image-service.ts';

/**
 * The image service's upload endpoint: the signed URL is the permission (it names the user and
 * expires), the file is re-encoded before anything is stored.
 */
export function imageRoutes() {
  return new Hono<AppEnv>().post(
    '/upload',
    bodyLimit({ maxSize: MAX_IMAGE_BYTES + 64 * 1024, onError: () => { throw new AppError('PAYLOAD_TOO_LARGE'); } }),
    async (c) => {
      const { db, signingSecret, mediaDir } = c.get('deps');
      const grant = verifyGrant(signingSecret, c.req.query());
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const file = form.file;
      if (!(file instanceof File)) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'file', message: 'a file is required' }] });
      if (file.size > MAX_IMAGE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
      const image = await processImage(grant.kind, new Uint8Array(await file.arrayBuffer()));
      const url = await storeImage(mediaDir, grant.kind, grant.fileName, image);
      // A new avatar is public at once and goes into the profile review queue; a cover waits
      // for the video commit that names it.
      if (grant.kind === 'avatar') await db.updateTable('users').set({ avatar: url, is_updated_after_review: true, updated_at: new Date() }).where('uid', '=', grant.uid).execute();
      const body: ImageUploadResponse = { success: true, url };
      return c.json(body);
    },
  );
}

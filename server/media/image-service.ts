import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import sharp from 'sharp';
import type { SecretsRepository } from '../repositories/secrets.repository.ts';
import { DomainError } from '../domain/errors.ts';
import type { MediaStore } from './media-store.ts';
import { makePosterSet } from './poster-set.ts';
import { POSTER_DEFAULT_WIDTH, posterFileName } from '../../src/lib/catalogue/poster.ts';

/** The project's own image service: signed, expiring upload URLs and re-encoded images. */
export const UPLOAD_URL_LIFETIME_MS = 10 * 60_000;
export { MAX_IMAGE_BYTES } from '../../src/lib/api/contracts/system.ts';
const MAX_INPUT_PIXELS = 40_000_000;

export type ImageKind = 'avatar' | 'cover';
/** Avatars are square; covers 16:9 (the browser crops them, the server enforces the frame). */
const PROFILES: Record<ImageKind, { width: number; height: number }> = {
  avatar: { width: 256, height: 256 },
  cover: { width: 1280, height: 720 },
};

/** A server-wide secret stored in the database, so every instance signs and checks alike. */
export async function loadSecret(secrets: SecretsRepository, name: string): Promise<string> {
  // The first instance to ask makes it; every other one (and every later start) reads that one.
  await secrets.insertIfMissing(name, randomBytes(32).toString('base64url'));
  return secrets.valueOf(name);
}

export interface UploadGrant {
  kind: ImageKind;
  uid: number;
  fileName: string;
  expires: number;
}

const signature = (secret: string, g: UploadGrant) =>
  createHmac('sha256', secret).update(`${g.kind}|${g.uid}|${g.fileName}|${g.expires}`).digest('base64url');

/** A grant to upload one image, for one user, before it expires. */
export function grantUpload(secret: string, origin: string, apiPrefix: string, kind: ImageKind, uid: number) {
  const grant: UploadGrant = {
    kind,
    uid,
    fileName: `${uid}-${randomBytes(9).toString('base64url')}.webp`,
    expires: Date.now() + UPLOAD_URL_LIFETIME_MS,
  };
  const url = new URL(`${apiPrefix}/images/upload`, origin);
  for (const [key, value] of Object.entries({ ...grant, sig: signature(secret, grant) }))
    url.searchParams.set(key, String(value));
  return { signedUrl: url.toString(), fileName: grant.fileName };
}

/** The grant a signed address carries, or null when its signature does not hold (tampered, made up). */
export function readGrant(secret: string, query: Record<string, string | undefined>): UploadGrant | null {
  const grant: UploadGrant = {
    kind: query.kind as ImageKind,
    uid: Number(query.uid),
    fileName: query.fileName ?? '',
    expires: Number(query.expires),
  };
  const expected = Buffer.from(signature(secret, grant));
  const given = Buffer.from(query.sig ?? '');
  const valid = given.length === expected.length && timingSafeEqual(given, expected);
  if (!valid || !(grant.kind in PROFILES) || !/^\d+-[\w-]+\.webp$/.test(grant.fileName)) return null;
  if (grant.expires < Date.now()) throw new DomainError('UPLOAD_EXPIRED');
  return grant;
}

/**
 * Decodes, orients, crops to the kind's size and re-encodes as WebP. Re-encoding drops every
 * piece of metadata (EXIF, GPS, comments); anything sharp cannot decode is not an image.
 */
export async function processImage(kind: ImageKind, input: Uint8Array): Promise<Buffer> {
  const { width, height } = PROFILES[kind];
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(width, height, { fit: 'cover', position: 'attention' })
      .webp({ quality: 86 })
      .toBuffer();
  } catch (error) {
    throw new DomainError('NOT_AN_IMAGE', { cause: error });
  }
}

/**
 * Stores a processed image in the media store; answers its address under /media/. An avatar is
 * one file; a cover is the poster set (320, 640 and 1280 wide in AVIF, WebP and JPEG, hash-named
 * so cached for a year) in a folder named after the grant's file, and its address is the 640 px
 * JPEG, which the cards widen into a srcset exactly as for a poster (posterSources).
 */
export async function storeImage(media: MediaStore, kind: ImageKind, fileName: string, data: Buffer): Promise<string> {
  if (kind === 'cover') {
    const folder = `images/covers/${fileName.replace(/\.webp$/, '')}`;
    const token = await makePosterSet(data, (name, file) => media.put(`${folder}/${name}`, file));
    return `/media/${folder}/${posterFileName(token, POSTER_DEFAULT_WIDTH, 'jpg')}`;
  }
  const key = `images/${kind}s/${fileName}`;
  await media.put(key, data);
  return `/media/${key}`;
}

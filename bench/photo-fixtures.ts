/**
 * Photo posts for the photo benches and screenshots: photo-like images (noise over colour
 * gradients, so encoders work as on real photos) in several aspect ratios, uploaded through the
 * real tus endpoint, committed, rendered by the real job and approved, on a running server.
 */
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';
import { createRepositories } from '../server/repositories/index.ts';
import { insertAccount } from '../server/services/accounts.ts';
import { createSession } from '../server/auth/sessions.ts';

const RATIOS = [
  [3, 2],
  [2, 3],
  [4, 3],
  [1, 1],
  [16, 9],
  [3, 4],
  [21, 9],
] as const;
const HUES = ['#e0457b', '#3a7bd5', '#2e8b57', '#f4a259', '#7b5ea7', '#1d9a8a', '#c0392b', '#5d6d7e'];

/** A photo-like JPEG `long` pixels on its long side. */
export async function photoLike(index: number, long = 1800): Promise<Buffer> {
  const [a, b] = RATIOS[index % RATIOS.length];
  const width = a >= b ? long : Math.round((long * a) / b);
  const height = a >= b ? Math.round((long * b) / a) : long;
  const hue = HUES[index % HUES.length];
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 120, sigma: 30 } },
  })
    .blur(1.5)
    .png()
    .toBuffer();
  const gradient =
    Buffer.from(`<svg width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hue}"/><stop offset="1" stop-color="#101828"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)" opacity=".8"/><circle cx="${width * 0.3}" cy="${height * 0.35}" r="${Math.min(width, height) / 5}" fill="#ffe9a8" opacity=".85"/></svg>`);
  return sharp(noise)
    .composite([{ input: gradient }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** A member's cookie header (a real account and session), as the API tests make them. */
export async function memberCookie(db: Kysely<Database>, name: string, roles?: string[]): Promise<string> {
  const repositories = createRepositories(db);
  const uid = await insertAccount(repositories, {
    email: `${name.toLowerCase()}@example.com`,
    password: 'photo bench password 1',
    username: name,
  });
  if (roles) await db.updateTable('users').set({ roles }).where('uid', '=', uid).execute();
  return `uid=${uid}; token=${await createSession(repositories, uid)}`;
}

/** Uploads one image through tus (kind photo); answers its media id. */
export async function uploadPhoto(baseUrl: string, cookie: string, bytes: Buffer, name = 'photo.jpg'): Promise<string> {
  const meta = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
  const tus = { 'Tus-Resumable': '1.0.0', Cookie: cookie };
  const created = await fetch(`${baseUrl}/api/video/tus`, {
    method: 'POST',
    headers: { ...tus, 'Upload-Length': String(bytes.length), 'Upload-Metadata': meta({ name, kind: 'photo' }) },
  });
  if (created.status !== 201) throw new Error(`tus creation answered ${created.status}: ${await created.text()}`);
  const done = await fetch(new URL(created.headers.get('location')!, baseUrl), {
    method: 'PATCH',
    headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(bytes),
  });
  if (done.status !== 204) throw new Error(`tus upload answered ${done.status}`);
  return done.headers.get('stream-media-id')!;
}

const json = (cookie: string) => ({ 'Content-Type': 'application/json', Cookie: cookie });

/** Commits a post of these images; answers its id. */
export async function commitPost(
  baseUrl: string,
  cookie: string,
  title: string,
  images: Array<{ mediaId: string; alt: string }>,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await fetch(`${baseUrl}/api/photo/upload`, {
    method: 'POST',
    headers: json(cookie),
    body: JSON.stringify({ title, copyright: 'original', images, ...extra }),
  });
  const body = (await res.json()) as { photoId?: number };
  if (!res.ok || !body.photoId) throw new Error(`photo/upload answered ${res.status}: ${JSON.stringify(body)}`);
  return body.photoId;
}

/** Waits until the post is rendered (pending review), then approves it. */
export async function approveWhenRendered(
  baseUrl: string,
  uploader: string,
  admin: string,
  photoId: number,
): Promise<void> {
  for (;;) {
    const res = await fetch(`${baseUrl}/api/photo?photoId=${photoId}`, { headers: json(uploader) });
    const { photo } = (await res.json()) as { photo: { status: string } };
    if (photo.status === 'pending') break;
    if (photo.status === 'failed') throw new Error(`post ${photoId} failed to render`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const approved = await fetch(`${baseUrl}/api/photo/pending/approved`, {
    method: 'POST',
    headers: json(admin),
    body: JSON.stringify({ photoId }),
  });
  if (!approved.ok) throw new Error(`approval answered ${approved.status}`);
}

/** `count` approved posts of 1-3 images each; answers their ids, newest last. */
export async function seedPhotoPosts(
  baseUrl: string,
  db: Kysely<Database>,
  count: number,
  long = 1800,
): Promise<{ ids: number[]; uploader: string; admin: string }> {
  const uploader = await memberCookie(db, 'PhotoBenchUploader');
  const admin = await memberCookie(db, 'PhotoBenchAdmin', ['administrator']);
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    const images = [];
    for (let i = 0; i < 1 + (n % 3); i++) {
      images.push({
        mediaId: await uploadPhoto(baseUrl, uploader, await photoLike(n + i * 5, long)),
        alt: `Evening light study ${n + 1}, frame ${i + 1}: a pale sun over a coloured sky`,
      });
    }
    const photoId = await commitPost(baseUrl, uploader, `Light study ${n + 1}`, images);
    await approveWhenRendered(baseUrl, uploader, admin, photoId);
    ids.push(photoId);
  }
  return { ids, uploader, admin };
}

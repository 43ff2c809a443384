import { stat } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import exifr from 'exifr';
import {
  PHOTO_MAX_BYTES,
  PHOTO_MAX_PIXELS,
  PHOTO_WIDTHS,
  type PhotoRefusal,
} from '../../src/lib/api/contracts/photo.constants.ts';

/**
 * The photo pipeline: an uploaded image is looked at (format, size, pixel count, from its
 * header only, so a decompression bomb is refused before it is decoded), then decoded once,
 * turned upright, and re-encoded into sized variants. Re-encoding drops every piece of
 * metadata the file carried (EXIF, GPS, XMP, comments); what the uploader agreed to keep of
 * the camera data is returned as plain values, never written back into a file.
 */

/** The formats an upload may be (sharp's names: AVIF reads as heif). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'gif']);
/** The files each variant is written as: AVIF and WebP for browsers that take them, JPEG for every other. */
export const PHOTO_FORMATS = ['avif', 'webp', 'jpg'] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];

export type PhotoInspection =
  | { ok: true; width: number; height: number; format: string; frames: number }
  | { ok: false; reason: PhotoRefusal };

/** Looks at an uploaded file without decoding its pixels: what it is, or why it is refused. */
export async function inspectPhoto(path: string): Promise<PhotoInspection> {
  const { size } = await stat(path);
  if (size > PHOTO_MAX_BYTES) return { ok: false, reason: 'IMAGE_TOO_LARGE' };
  let meta: Metadata;
  try {
    // Header only; the pixel limit is ours (below), so sharp must not refuse first with its own message.
    meta = await sharp(path, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: 'NOT_AN_IMAGE' };
  }
  const format = meta.format === 'heif' && meta.compression !== 'av1' ? 'heic' : meta.format;
  if (!format || !ACCEPTED_FORMATS.has(format))
    return { ok: false, reason: format ? 'UNSUPPORTED_IMAGE_FORMAT' : 'NOT_AN_IMAGE' };
  const { width, height } = meta;
  if (!width || !height) return { ok: false, reason: 'NOT_AN_IMAGE' };
  const frames = meta.pages ?? 1;
  // A bomb: a small file that claims more pixels than any real photo (all frames of an animation count).
  if (width * height * frames > PHOTO_MAX_PIXELS) return { ok: false, reason: 'TOO_MANY_PIXELS' };
  return { ok: true, width, height, format, frames };
}

/** The camera facts kept when the uploader agrees: make, model, lens and exposure; never a place or a time. */
export interface CameraData {
  make?: string;
  model?: string;
  lens?: string;
  exposureTime?: number;
  fNumber?: number;
  iso?: number;
  focalLength?: number;
}

export async function readCameraData(path: string): Promise<CameraData | null> {
  const tags = (await exifr
    .parse(path, { pick: ['Make', 'Model', 'LensModel', 'ExposureTime', 'FNumber', 'ISO', 'FocalLength'] })
    .catch(() => null)) as Record<string, unknown> | null;
  if (!tags) return null;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 80) : undefined);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const data: CameraData = {
    make: text(tags.Make),
    model: text(tags.Model),
    lens: text(tags.LensModel),
    exposureTime: num(tags.ExposureTime),
    fNumber: num(tags.FNumber),
    iso: num(tags.ISO),
    focalLength: num(tags.FocalLength),
  };
  const kept = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as CameraData;
  return Object.keys(kept).length ? kept : null;
}

/** The widths rendered for a source: every standard width below it, and at least one (its own, when narrower). */
export function widthsFor(sourceWidth: number): number[] {
  const widths = PHOTO_WIDTHS.filter((w) => w <= sourceWidth);
  return widths.length ? widths : [sourceWidth];
}

export interface RenderedPhoto {
  /** Upright size of the source. */
  width: number;
  height: number;
  widths: number[];
  /** A tiny blurred WebP as a data URL, shown while the real image loads. */
  placeholder: string;
  animated: boolean;
}

/** One encoder per output format; the qualities are chosen for photographs seen on screens. */
function encode(image: Sharp, format: PhotoFormat): Sharp {
  if (format === 'avif') return image.avif({ quality: 50, effort: 2 });
  if (format === 'webp') return image.webp({ quality: 78, effort: 3 });
  return image.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true, progressive: true });
}

/**
 * Decodes the image once (upright, sRGB, at the largest width needed) and writes every variant
 * through `write(width, format, bytes)`, each resized from those pixels. An animation (GIF,
 * animated WebP) keeps its motion in WebP, read from the file for each width (animations are
 * small); its AVIF is left out (sharp writes no animated AVIF) and its JPEG is the first frame.
 */
export async function renderPhoto(
  path: string,
  inspection: Extract<PhotoInspection, { ok: true }>,
  write: (width: number, format: PhotoFormat, bytes: Buffer) => Promise<void>,
): Promise<RenderedPhoto> {
  const animated = inspection.frames > 1;
  const open = (frames: boolean) =>
    sharp(path, { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error', animated: frames }).rotate();
  const { data, info } = await open(false)
    .resize({ width: PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1], withoutEnlargement: true })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const decoded = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  // The upright size of the source (the orientation may turn it a quarter).
  const turned = [5, 6, 7, 8].includes((await sharp(path, { limitInputPixels: false }).metadata()).orientation ?? 1);
  const width = turned ? inspection.height : inspection.width;
  const height = Math.round((info.height * width) / info.width);
  const widths = widthsFor(width);
  for (const w of widths) {
    for (const format of PHOTO_FORMATS) {
      if (animated && format === 'avif') continue;
      const image = animated && format === 'webp' ? open(true) : decoded();
      await write(w, format, await encode(image.resize({ width: w }), format).toBuffer());
    }
  }
  const tiny = await decoded().resize({ width: 16 }).blur(1.2).webp({ quality: 40 }).toBuffer();
  return { width, height, widths, placeholder: `data:image/webp;base64,${tiny.toString('base64')}`, animated };
}

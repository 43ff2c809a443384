import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { POSTER_FORMATS, POSTER_WIDTHS, posterFileName, type PosterFormat } from '../../src/lib/catalogue/poster.ts';

const ENCODE: Record<PosterFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 4 }),
  webp: (image) => image.webp({ quality: 72 }),
  jpg: (image) => image.jpeg({ quality: 78, mozjpeg: true }),
};

/**
 * Part of every token: a set made with other widths or encodings gets other names, so a browser
 * never keeps a year-cached file from an earlier set under a name that now means something else.
 */
const SET_VERSION = 'widths-320-640-960-1280';

/**
 * From a media item's poster.jpg, the sizes lists show (320, 640, 960 and 1280 wide, never wider than
 * the frame) in AVIF, WebP and JPEG, named by a hash of the frame. Each file is written whole
 * by `write` (a scratch folder published whole, or the media store). Answers the token.
 */
export async function makePosterSet(
  frame: Buffer,
  write: (name: string, data: Buffer) => Promise<void>,
): Promise<string> {
  const token = createHash('sha256').update(SET_VERSION).update(frame).digest('hex').slice(0, 12);
  const { width: frameWidth = 1280 } = await sharp(frame).metadata();
  for (const width of POSTER_WIDTHS) {
    const resized = sharp(frame).resize({ width: Math.min(width, frameWidth) });
    for (const format of POSTER_FORMATS) {
      const name = posterFileName(token, width, format);
      const data = await ENCODE[format](resized.clone()).toBuffer();
      await write(name, data);
    }
  }
  return token;
}

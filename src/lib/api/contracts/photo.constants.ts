/**
 * The photo section's limits and names as plain values (no zod): what the browser imports.
 * The schemas that use them are in photo.ts.
 */
/** One post holds one to this many images. */
export const PHOTO_MAX_IMAGES = 30;
/** Each image at most 50 MB and 100 megapixels (all frames of an animation together). */
export const PHOTO_MAX_BYTES = 50 * 1024 * 1024;
export const PHOTO_MAX_PIXELS = 100_000_000;
/** The widths every image is rendered at (never wider than its source). */
export const PHOTO_WIDTHS = [320, 640, 1280, 2560] as const;
export const PHOTO_TITLE_MAX = 80;
export const PHOTO_DESCRIPTION_MAX = 2000;
export const PHOTO_ALT_MAX = 1000;
export const MAX_TAGS_PER_PHOTO = 10;
/** The file types an upload may be (what the browser's picker offers and checks first). */
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;

/** Why the pipeline refuses an image; each is an API error code with its message. */
export const PHOTO_REFUSALS = [
  'NOT_AN_IMAGE',
  'UNSUPPORTED_IMAGE_FORMAT',
  'IMAGE_TOO_LARGE',
  'TOO_MANY_PIXELS',
] as const;
export type PhotoRefusal = (typeof PHOTO_REFUSALS)[number];

/** A post's life: rendered, waiting for review, public, refused by the pipeline, or refused by a reviewer (only the uploader sees that). */
export const PHOTO_STATES = ['processing', 'pending', 'approved', 'failed', 'rejected'] as const;
export type PhotoState = (typeof PHOTO_STATES)[number];

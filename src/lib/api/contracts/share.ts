/** Sharing outside the site: the oEmbed endpoint (oEmbed 1.0, JSON). */
import { z } from 'zod';

const size = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(32, 'must be at least 32')
  .max(4096, 'must be at most 4096');

export const oembedQuery = z.object({
  /** The page (in any language) or embed address of a video or a track on this site. */
  url: z.string().trim().min(1, 'must not be empty').max(2048),
  maxwidth: size.optional(),
  maxheight: size.optional(),
  /** The specification's two formats: `json` is made, `xml` answers 501 as it asks; anything else is no format. */
  format: z.enum(['json', 'xml']).optional(),
});

export const oembedResponse = z.object({
  version: z.literal('1.0'),
  /** `video` for a video, `rich` for a track (an audio player). */
  type: z.enum(['video', 'rich']),
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  cache_age: z.number(),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.number().optional(),
  thumbnail_height: z.number().optional(),
  html: z.string(),
  width: z.number(),
  height: z.number(),
});
export type OembedResponse = z.infer<typeof oembedResponse>;

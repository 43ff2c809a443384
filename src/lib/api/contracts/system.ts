/** Health, the first-run page and the image service: the system family's schemas. */
import { z } from 'zod';
import { clientLanguage, email } from './common.ts';

export const healthResponse = z.object({
  success: z.literal(true),
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['pglite', 'postgres']),
  databaseOk: z.boolean(),
  buildId: z.string().nullable(),
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof healthResponse>;
/** The first-run page's form: the first administrator, with the one-time token of the server's log. */
export const firstRunBody = z.object({
  token: z.string().trim().min(1).max(200),
  email,
  password: z.string().min(1).max(1000),
  username: z.string().max(200),
  userNickname: z.string().max(200).optional(),
  clientLanguage,
});
export type FirstRunBody = z.input<typeof firstRunBody>;
export const firstRunStateResponse = z.object({ success: z.literal(true), open: z.literal(true) });
/** Largest avatar or cover file the image service takes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const imageUploadResponse = z.object({ success: z.literal(true), url: z.string() });
export type ImageUploadResponse = z.infer<typeof imageUploadResponse>;

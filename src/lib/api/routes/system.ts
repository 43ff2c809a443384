import { z } from 'zod';
import { defineRoutes } from '../route.ts';
import { healthResponse, imageUploadResponse, MAX_IMAGE_BYTES } from '../contract.ts';

/** The process itself, and the image service's upload endpoint. */
export const systemRoutes = defineRoutes({
  'GET health': {
    tag: 'system', summary: 'Whether this process and its database answer (503 when the database does not).',
    permission: 'catalogue.read', response: healthResponse, cache: 'no-store',
  },
  'GET openapi.json': {
    tag: 'system', summary: 'This document: every endpoint, its input, answers and permission (OpenAPI 3.1).',
    permission: 'catalogue.read', response: z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }), cache: 'public',
  },
  'GET docs': {
    tag: 'system', summary: 'The same document as a readable page.',
    permission: 'catalogue.read', raw: 'html', response: z.string(), cache: 'public',
  },
  'POST images/upload': {
    tag: 'system', summary: 'Upload an avatar or a cover to the address a preUpload call signed (multipart, field `file`).',
    permission: 'image.upload', raw: 'multipart', response: imageUploadResponse, maxBodyBytes: MAX_IMAGE_BYTES + 64 * 1024,
    query: z.object({ kind: z.string(), uid: z.string(), fileName: z.string(), expires: z.string(), sig: z.string() }).partial(),
    errors: ['NOT_AN_IMAGE', 'UPLOAD_EXPIRED', 'PAYLOAD_TOO_LARGE'],
  },
});

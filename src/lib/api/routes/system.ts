import { z } from 'zod';
import { defineRoutes } from '../route.ts';
import {
  firstRunBody,
  firstRunStateResponse,
  healthResponse,
  imageUploadResponse,
  MAX_IMAGE_BYTES,
} from '../contracts/system.ts';
import { loginResponse } from '../contracts/user.ts';

/** The process itself, and the image service's upload endpoint. */
export const systemRoutes = defineRoutes({
  'GET health': {
    tag: 'system',
    summary: 'Whether this process and its database answer (503 when the database does not).',
    permission: 'catalogue.read',
    response: healthResponse,
    cache: 'no-store',
  },
  'GET openapi.json': {
    tag: 'system',
    summary: 'This document: every endpoint, its input, answers and permission (OpenAPI 3.1).',
    permission: 'catalogue.read',
    response: z.looseObject({
      openapi: z.literal('3.1.0'),
      info: z.looseObject({}),
      paths: z.record(z.string(), z.unknown()),
    }),
    cache: 'public',
  },
  'GET docs': {
    tag: 'system',
    summary: 'The same document as a readable page.',
    permission: 'catalogue.read',
    raw: 'html',
    response: z.string(),
    cache: 'public',
  },
  // A new site: the first administrator from the browser (server/services/first-run.ts).
  'GET firstRun': {
    tag: 'system',
    summary: 'Whether the first-run page is open: 200 while the site has no administrator, 404 once it has one.',
    permission: 'account.guest',
    response: firstRunStateResponse,
    cache: 'no-store',
  },
  'POST firstRun': {
    tag: 'system',
    summary:
      'Create the first administrator with the one-time token the server printed in its log at start; logs them in (Set-Cookie). 404 once an administrator exists.',
    permission: 'account.guest',
    body: firstRunBody,
    response: loginResponse,
    cache: 'no-store',
    rateLimits: [{ limit: 'registerPerIp', by: 'ip' }],
    errors: ['FIRST_RUN_TOKEN_INVALID', 'EMAIL_TAKEN', 'USERNAME_TAKEN', 'WEAK_PASSWORD'],
  },
  'POST images/upload': {
    tag: 'system',
    summary: 'Upload an avatar or a cover to the address a preUpload call signed (multipart, field `file`).',
    permission: 'image.upload',
    resource: 'imageGrant',
    raw: 'multipart',
    response: imageUploadResponse,
    maxBodyBytes: MAX_IMAGE_BYTES + 64 * 1024,
    query: z
      .object({ kind: z.string(), uid: z.string(), fileName: z.string(), expires: z.string(), sig: z.string() })
      .partial(),
    errors: ['NOT_AN_IMAGE', 'UPLOAD_EXPIRED', 'PAYLOAD_TOO_LARGE'],
  },
});

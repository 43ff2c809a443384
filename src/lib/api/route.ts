/**
 * The shape of one entry of the route table (src/lib/api/routes/): everything the server, the
 * browser client, the OpenAPI document and the generated test suites need to know of an endpoint.
 * The key is the endpoint itself, 'METHOD path' (path relative to the API base), so the client
 * derives the call from the key alone and never imports the table at run time.
 */
import type { z } from 'zod';
import type { Action } from '../policy/policy.ts';
import type { RateLimitName } from './limits.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RouteKey = `${Method} ${string}`;

/**
 * Cache-Control of a successful answer, unless the handler chooses per answer:
 * - public: shared caches may keep it briefly (15 s), varying by cookie and language;
 * - private: personal, never stored;
 * - no-store: never stored (secrets, one-time answers);
 * - none: no header (the browser's defaults).
 */
export type CacheRule = 'public' | 'private' | 'no-store' | 'none';

/**
 * A limit of the call, per client address or per member. The route middleware counts it before the
 * input is read, unless `counted: 'service'`: then the service counts it once its own checks pass
 * (a danmaku past the end of the video, a comment on a hidden video cost the sender nothing). Either
 * way it is data here, so the OpenAPI document states it (`x-rate-limit`).
 */
export interface RateRule {
  limit: RateLimitName;
  by: 'ip' | 'uid';
  counted?: 'service';
}

/**
 * The thing a call acts on, read once the input is parsed and before the handler runs
 * (server/app/resources.ts): the entry's permission is checked against it (owner, staff,
 * visibility rules) and the handler receives it. A missing one, or one the caller may not see,
 * answers 404 from the loader.
 * - video, audio, photo: an upload that is not deleted, by its id (its uploader);
 * - subtitle: a subtitle track, by its id (the uploader of its video);
 * - collection: a collection as the caller may see it (someone else's private one is not found);
 * - comment: a comment, by its route (its author);
 * - media: an uploaded file's processing state (its owner);
 * - visibleVideo: a video, as the caller may see it (its uploader);
 * - visibleTarget: the video, track or photo post a call names, as the caller may see it (its uploader);
 * - writableTarget: the same, and its uploader did not block the caller (danmaku, comments, votes);
 * - imageGrant: the signed upload address of the image service (the query of the request).
 */
export type ResourceName =
  | 'video'
  | 'audio'
  | 'photo'
  | 'subtitle'
  | 'collection'
  | 'comment'
  | 'media'
  | 'visibleVideo'
  | 'visibleTarget'
  | 'writableTarget'
  | 'imageGrant';

export interface RouteDef {
  summary: string;
  /** Family in the OpenAPI document (SPEC §7's groups). */
  tag:
    | 'video'
    | 'danmaku'
    | 'comment'
    | 'upload'
    | 'user'
    | 'account'
    | 'admin'
    | 'history'
    | 'block'
    | 'feed'
    | 'collection'
    | 'audio'
    | 'photo'
    | 'like'
    | 'system'
    | 'moderation';
  /** The policy table's action; its resource rule (owner, staff) is checked on `resource` once loaded. */
  permission: Action;
  resource?: ResourceName;
  /** GET input: the query string. */
  query?: z.ZodType;
  /** Any other method's input: a JSON body. */
  body?: z.ZodType;
  /** Every answer has a schema: responses are checked against it in development and in tests. */
  response: z.ZodType;
  /** Error codes this endpoint answers beside the generic ones (documentation). */
  errors?: readonly string[];
  rateLimits?: readonly RateRule[];
  cache?: CacheRule;
  /**
   * Not a JSON call: `upload` is the tus protocol (bodies of bytes), `multipart` a form with a
   * file, `html` a page. The table still names the permission; the handler reads the request itself.
   */
  raw?: 'tus' | 'multipart' | 'html';
  /**
   * A stream of Server-Sent Events (text/event-stream) instead of one JSON answer: each unnamed
   * event's data is one `response`, and `events` names the other kinds of event with their data.
   * The guard, the input and the permission are as for any entry; the handler answers the stream.
   */
  stream?: { events: Record<string, z.ZodType> };
  /** Largest request body (JSON calls: 16 KiB unless set; the largest valid body of the call, with room). */
  maxBodyBytes?: number;
}

export type RouteTableShape = Record<RouteKey, RouteDef>;

/** Declares a family's entries, checking their shape while keeping each entry's exact schemas. */
export const defineRoutes = <const T extends { [K in keyof T]: K extends RouteKey ? RouteDef : never }>(routes: T): T =>
  routes;

/** What a call sends: the query of a GET, the body of the rest; nothing when the entry takes none. */
export type InputOf<D> = D extends { query: infer S extends z.ZodType }
  ? z.input<S>
  : D extends { body: infer S extends z.ZodType }
    ? z.input<S>
    : undefined;
/** What the handler receives: the input after its schema parsed it (defaults filled, text trimmed). */
export type ParsedInputOf<D> = D extends { query: infer S extends z.ZodType }
  ? z.output<S>
  : D extends { body: infer S extends z.ZodType }
    ? z.output<S>
    : undefined;
/** What a call answers on success. */
export type OutputOf<D> = D extends { response: infer S extends z.ZodType } ? z.output<S> : never;
/** What a handler returns (before its schema is applied). */
export type HandlerOutputOf<D> = D extends { response: infer S extends z.ZodType } ? z.input<S> : never;

/** The entries of a table that answer a stream of events (opened with EventSource, not called). */
export type StreamRouteOf<T> = { [K in keyof T]: T[K] extends { stream: object } ? K : never }[keyof T];

/** 'GET video/home' → ['GET', 'video/home']. */
export function splitRouteKey(key: string): [Method, string] {
  const space = key.indexOf(' ');
  return [key.slice(0, space) as Method, key.slice(space + 1)];
}

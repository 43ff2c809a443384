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

/** A limit the route middleware counts before the handler runs: per client address or per member. */
export interface RateRule { limit: RateLimitName; by: 'ip' | 'uid' }

export interface RouteDef {
  summary: string;
  /** Family in the OpenAPI document (SPEC §7's groups). */
  tag: 'video' | 'danmaku' | 'comment' | 'upload' | 'user' | 'account' | 'admin' | 'history' | 'block' | 'feed' | 'collection' | 'audio' | 'photo' | 'like' | 'system' | 'moderation';
  /** The policy table's action; resource rules (owner, role changes) are checked once the resource is loaded. */
  permission: Action;
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
export const defineRoutes = <const T extends { [K in keyof T]: K extends RouteKey ? RouteDef : never }>(routes: T): T => routes;

/** What a call sends: the query of a GET, the body of the rest; nothing when the entry takes none. */
export type InputOf<D> = D extends { query: infer S extends z.ZodType } ? z.input<S>
  : D extends { body: infer S extends z.ZodType } ? z.input<S> : undefined;
/** What the handler receives: the input after its schema parsed it (defaults filled, text trimmed). */
export type ParsedInputOf<D> = D extends { query: infer S extends z.ZodType } ? z.output<S>
  : D extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;
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

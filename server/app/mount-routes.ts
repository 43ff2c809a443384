/**
 * Mounts the route table: for each entry, once and in this order, the permission (policy table),
 * the rate limits, the input (Hono's validator with the entry's schema), the entry's resource
 * (loaded by name, server/app/resources.ts, and checked against the permission's resource rule),
 * then the handler (one expression calling its service), whose answer is checked against the
 * response schema in development and tests, and the cache rule.
 */
import { clientAddress, isPublicHttps, publicOrigin, type ProxySettings } from '../http/public-origin.ts';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import type { z } from 'zod';
import type { AppEnv } from './app-env.ts';
import type { openApiDocument } from './openapi.ts';

type OpenApiDocument = ReturnType<typeof openApiDocument>;
import { DomainError, Invalid, issuesOf } from '../domain/errors.ts';
import { ROUTES, type ApiRoute } from '../../src/lib/api/routes/index.ts';
import {
  splitRouteKey,
  type CacheRule,
  type HandlerOutputOf,
  type ParsedInputOf,
  type ResourceName,
  type RouteDef,
} from '../../src/lib/api/route.ts';
import { POLICY, refusal, type PolicyContext, type Resource } from '../../src/lib/policy/policy.ts';
import { RESOURCE_LOADERS, type LoadedResource } from './resources.ts';
import { controlCharacterPath, stripControlCharacters } from '../../src/lib/validation/text.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH, queryValues } from '../../src/lib/api/wire.ts';
import type { Services } from '../services/index.ts';
import type { Viewer } from '../services/sessions.ts';
import type { Logger } from '../logger.ts';
import { requestLocale } from '../http/request-locale.ts';
import type { CatalogLocale } from '../../src/lib/i18n/locales.ts';
import { SESSION_COOKIE_TOKEN } from '../services/sessions.ts';

/**
 * A JSON body larger than this is refused (413) while it streams in, before it is parsed: a few
 * ids and short texts. Calls that take more say how much in their route entry (maxBodyBytes).
 */
export const MAX_JSON_BODY_BYTES = 16 * 1024;
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** What a handler gets beside its parsed input. */
export interface HandlerContext {
  services: Services;
  /** The logged-in account, when the route's permission required one (else use viewer()). */
  actor: Viewer;
  /** The logged-in account, or null for a guest (looked up once per request). */
  viewer(): Promise<Viewer | null>;
  /** The caller's address, for per-address limits (the proxy's only when trusted). */
  ip: string;
  /** The language of the caller's messages (mails, errors). */
  locale: CatalogLocale;
  /** This request's public origin and the API's path prefix (for absolute upload URLs). */
  origin: string;
  apiPrefix: string;
  /** https, directly or through a trusted proxy (cookies get Secure). */
  secure: boolean;
  sessionToken: string | undefined;
  logger: Logger;
  /** Chooses this answer's cache rule over the table's (e.g. personal lists). */
  cache(rule: CacheRule): void;
  header(name: string, value: string, append?: boolean): void;
  /** The raw request, for the few handlers that speak HTTP themselves (tus, conditional GETs). */
  c: Context<AppEnv>;
  /** This API's OpenAPI document (made once by the app, on first ask). */
  openApi(): OpenApiDocument;
}

type Table = typeof ROUTES;
/** The entry's resource, loaded and checked against its permission before the handler runs. */
type ResourceOf<D> = D extends { resource: infer N extends ResourceName } ? { resource: LoadedResource<N> } : unknown;
export type Handler<K extends ApiRoute> = (
  input: ParsedInputOf<Table[K]>,
  ctx: HandlerContext & ResourceOf<Table[K]>,
) => Promise<HandlerOutputOf<Table[K]> | Response>;
/** Handlers of some entries of the table (a family's file). */
export type HandlerSet<P extends string> = {
  [K in ApiRoute as K extends `${string} ${P}${string}` ? K : never]: Handler<K>;
};
/** Every entry has exactly one handler. */
export type AllHandlers = { [K in ApiRoute]: Handler<K> };

export interface MountOptions {
  services: Services;
  policy: PolicyContext;
  /** Check each answer against its response schema (development and tests): a mismatch is a 500. */
  checkResponses: boolean;
  proxy: ProxySettings;
  apiPrefix: string;
  openApi(): OpenApiDocument;
}

const CACHE_HEADERS: Record<Exclude<CacheRule, 'none'>, Record<string, string>> = {
  public: { 'Cache-Control': 'public, max-age=15', Vary: 'Cookie, X-Client-Language' },
  private: { 'Cache-Control': 'private, no-store' },
  'no-store': { 'Cache-Control': 'no-store' },
};

function parseWith(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (!result.success) throw new Invalid(issuesOf(result.error));
  return result.data;
}

/** The caller's address (the proxy's header only when it is trusted). */
export function clientIp(c: Context<AppEnv>, proxy: ProxySettings): string {
  const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket;
  return clientAddress(c.req.header('x-forwarded-for'), socket?.remoteAddress, proxy);
}

/** The request's viewer, looked up once. */
export function viewerOf(c: Context<AppEnv>, services: Services): Promise<Viewer | null> {
  let pending = c.get('viewer');
  if (!pending) c.set('viewer', (pending = services.sessions.viewerFromCookies(c.req.header('cookie'))));
  return pending;
}

const limitBody = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new DomainError('PAYLOAD_TOO_LARGE');
    },
  });

/**
 * Input of a JSON call: no body is an empty object (the schema then names what is missing);
 * a body of another type is refused (415); malformed JSON, JSON nested deeper than
 * MAX_JSON_DEPTH (measured on the text before it is parsed, so nothing recurses that deep) or
 * text with control characters other than tab and newline (PostgreSQL refuses NUL; none belongs
 * in stored text) is refused (400). The body's values are taken as JSON typed them: an id is a
 * number, never a text or a boolean that looks like one (src/lib/api/wire.ts).
 */
function jsonInput(schema: z.ZodType, maxBytes = MAX_JSON_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const limit = limitBody(maxBytes);
  const parse = validator('json', (value) => {
    const bad = controlCharacterPath(value);
    if (bad !== null) throw new Invalid([{ path: bad || '(body)', message: 'must not contain control characters' }]);
    return parseWith(schema, value);
  });
  const shallow = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    // Read once here (Hono keeps the text for the parse that follows).
    if (jsonDepthExceeds(await c.req.text()))
      throw new Invalid([{ path: '(body)', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }]);
    await parse(c, next);
  };
  return async (c, next) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0].trim();
    const length = c.req.header('content-length');
    const hasBody = (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
    if (type && !JSON_TYPE.test(type) && hasBody) throw new DomainError('UNSUPPORTED_MEDIA_TYPE');
    if (!type && hasBody) throw new DomainError('UNSUPPORTED_MEDIA_TYPE');
    // A body of a declared length is judged by it, as Hono's limit would, without the limit's
    // look at the body stream: that builds a whole web Request for every call (a tenth of a
    // like's server time). Only a chunked body is counted as it streams in.
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(length, 10) > maxBytes) throw new DomainError('PAYLOAD_TOO_LARGE');
      return type ? shallow(c, next) : parse(c, next);
    }
    return limit(c, async () => {
      await (type ? shallow(c, next) : parse(c, next));
    });
  };
}

/**
 * Input of a GET: the query, with control characters removed from every value (search terms),
 * then digit-only text turned into numbers where the schema wants numbers (nothing else is).
 */
function queryInput(schema: z.ZodType): MiddlewareHandler<AppEnv> {
  return validator('query', (value) => {
    const cleaned = Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        Array.isArray(v) ? v.map(stripControlCharacters) : stripControlCharacters(v),
      ]),
    );
    return parseWith(schema, queryValues(schema, cleaned));
  });
}

/**
 * The route's guard, before its input is even read: the policy's subject rule (a guest asking for
 * a member's call is told to log in whatever they sent), then the rate limits.
 */
function guard(def: RouteDef, options: MountOptions): MiddlewareHandler<AppEnv> {
  const needsViewer = POLICY[def.permission].subject !== 'anyone';
  return async (c, next) => {
    const viewer = needsViewer ? await viewerOf(c, options.services) : null;
    const refused = refusal(viewer, def.permission, undefined, options.policy);
    if (refused) throw new DomainError(refused);
    const ip = clientIp(c, options.proxy);
    for (const rule of def.rateLimits ?? []) {
      if (rule.counted !== 'service')
        await options.services.rateLimits.hit(rule.limit, rule.by === 'ip' ? ip : viewer!.uid);
    }
    await next();
  };
}

function routeHandler(
  key: ApiRoute,
  def: RouteDef,
  handler: Handler<ApiRoute>,
  options: MountOptions,
): MiddlewareHandler<AppEnv> {
  const { services } = options;
  return async (c) => {
    const input = def.raw
      ? undefined
      : def.query
        ? c.req.valid('query' as never)
        : def.body
          ? c.req.valid('json' as never)
          : undefined;
    let cacheRule: CacheRule = def.cache ?? 'none';
    let actor: Viewer | null | undefined;
    const ctx: HandlerContext = {
      services,
      get actor() {
        if (!actor) throw new DomainError('UNAUTHORIZED');
        return actor;
      },
      viewer: () => viewerOf(c, services),
      // Read from the request only by the handlers that ask: most never do (a danmaku read is hot).
      get ip() {
        return clientIp(c, options.proxy);
      },
      get locale() {
        return requestLocale(c.req.raw.headers) as CatalogLocale;
      },
      get origin() {
        return publicOrigin(c.req.url, (name) => c.req.header(name), options.proxy);
      },
      apiPrefix: options.apiPrefix,
      openApi: options.openApi,
      get secure() {
        return isPublicHttps(c.req.url, (name) => c.req.header(name), options.proxy);
      },
      get sessionToken() {
        return getCookie(c, SESSION_COOKIE_TOKEN);
      },
      logger: c.get('logger'),
      cache: (rule) => {
        cacheRule = rule;
      },
      header: (name, value, append) => c.header(name, value, append ? { append: true } : undefined),
      c,
    };
    // Resolved by the guard when the permission needs an account; public calls ask viewer() when they care.
    actor = POLICY[def.permission].subject === 'anyone' ? null : await c.get('viewer');
    if (def.resource) {
      const loader = RESOURCE_LOADERS[def.resource] as (
        input: unknown,
        context: Pick<HandlerContext, 'services' | 'viewer' | 'c'>,
      ) => Promise<Resource>;
      const resource = await loader(input, ctx);
      const why = refusal(actor ?? null, def.permission, resource, options.policy);
      if (why) throw new DomainError(why);
      Object.assign(ctx, { resource });
    }
    const output = await handler(input as never, ctx);
    if (output instanceof Response) return output;
    if (def.stream) throw new Error(`${key}: a stream entry's handler answers the stream itself`);
    let body: unknown = output;
    if (options.checkResponses) {
      const checked = def.response.safeParse(output);
      if (!checked.success) {
        c.get('logger').error('answer does not match its schema', { route: key, issues: issuesOf(checked.error) });
        throw new Error(
          `${key}: the answer does not match its response schema: ${JSON.stringify(issuesOf(checked.error))}`,
        );
      }
      body = checked.data;
    }
    if (cacheRule !== 'none')
      for (const [name, value] of Object.entries(CACHE_HEADERS[cacheRule])) c.header(name, value);
    return c.json(body as object);
  };
}

/** Mounts every entry of the table on the API app with its handler. */
export function mountRoutes(app: Hono<AppEnv>, handlers: AllHandlers, options: MountOptions): void {
  for (const [key, def] of Object.entries(ROUTES) as Array<[ApiRoute, RouteDef]>) {
    const [method, path] = splitRouteKey(key);
    const handler = handlers[key] as Handler<ApiRoute> | undefined;
    if (!handler) throw new Error(`no handler for ${key}`);
    // tus answers its refusals itself, with its protocol headers: the upload server asks the
    // same policy action (server/media/uploads.ts) before it reads a byte.
    const steps: MiddlewareHandler<AppEnv>[] = def.raw === 'tus' ? [] : [guard(def, options)];
    if (!def.raw && def.query) steps.push(queryInput(def.query));
    if (!def.raw && def.body) steps.push(jsonInput(def.body, def.maxBodyBytes));
    if (def.raw === 'multipart') steps.push(limitBody(def.maxBodyBytes ?? MAX_JSON_BODY_BYTES));
    steps.push(routeHandler(key, def, handler, options));
    app.on(method, `/${path}`, ...(steps as [MiddlewareHandler<AppEnv>]));
  }
}

/**
 * A path of the route table asked with a method it does not take answers 405 with the methods it
 * does (Allow), rather than 404: `GET user/logout`, now a POST, is refused this way. Mounted after
 * every route, so it only sees what nothing else took.
 */
export function mountMethodRefusals(app: Hono<AppEnv>, extra: Record<string, string[]> = {}): void {
  const methodsByPath = new Map<string, Set<string>>();
  const add = (path: string, method: string) => {
    const methods = methodsByPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    methodsByPath.set(path, methods);
  };
  for (const key of Object.keys(ROUTES) as ApiRoute[]) {
    const [method, path] = splitRouteKey(key);
    add(`/${path}`, method);
  }
  for (const [path, methods] of Object.entries(extra)) methods.forEach((method) => add(path, method));
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].join(', ');
    app.all(path, (c) => {
      c.header('Allow', allow);
      throw new DomainError('METHOD_NOT_ALLOWED');
    });
  }
}

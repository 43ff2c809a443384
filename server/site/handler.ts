import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { SiteLocals } from './locals.ts';
import { decideNavigation } from './navigation.ts';
import { createStaticFiles } from './static-files.ts';
import { compressRenderedResponse } from './compress-rendered.ts';
import { publicOrigin } from '../http/public-origin.ts';
import { isBot } from '../../src/lib/navigation/bots.ts';
import { prerenderedErrorStatus } from '../../src/lib/navigation/error-route.ts';
import { splitLocale } from '../../src/lib/i18n/locales.ts';
import { createSecurityHeaders, type SecurityHeaders } from '../http/security-headers.ts';
import { createPageOutages } from '../http/outage.ts';
import { preferredEncoding } from '../http/content-encoding.ts';
import { parseCookies, SESSION_COOKIE_TOKEN } from '../services/sessions.ts';
import type { PageCache } from './page-cache.ts';
import { answerFromCache, capturePage } from './page-capture.ts';

const firstHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals?: object,
) => Promise<void>;

/**
 * The status line says its own code's reason phrase. Astro copies a Response's statusText into
 * it, and a page that sets only its status (every 404 page) kept the 200's: `404 OK`.
 */
function ownReasonPhrase(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, reason: string, headers?: unknown) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) =>
    writeHead(
      status,
      STATUS_CODES[status] ?? 'Unknown',
      rest.find((arg) => typeof arg !== 'string'),
    )) as typeof res.writeHead;
}

/**
 * The site half of the process: navigation rules, then prerendered files, then pages rendered
 * on demand by Astro (which also answers unknown paths with the 'Page Not Found' page).
 */
export async function createSiteHandler(
  config: ServerConfig,
  locals: SiteLocals,
  logger: Logger,
  security: SecurityHeaders = createSecurityHeaders(config.runtime),
  pages: PageCache | null = null,
) {
  const serveStatic = createStaticFiles(join(config.distDir, 'client'));
  const entry = join(config.distDir, 'server', 'entry.mjs');
  const { handler: astro } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  // A page stopped by the database being away is a 503 (src/pages/500.astro asks `outage`,
  // which also sets Retry-After and shows why).
  const outages = createPageOutages(logger);

  return async function handleSite(req: IncomingMessage, res: ServerResponse): Promise<void> {
    ownReasonPhrase(res);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const header = (name: string) => firstHeader(req.headers[name]);
    const requestUrl = `${'encrypted' in req.socket ? 'https' : 'http'}://${req.headers.host || 'localhost'}${url.pathname}`;
    const origin = publicOrigin(requestUrl, header, config.proxy);
    const secure = origin.startsWith('https:');
    const decision = decideNavigation(
      {
        pathname: url.pathname,
        search: url.search,
        host: new URL(origin).host,
        cookieHeader: req.headers.cookie,
        acceptLanguage: req.headers['accept-language'],
        secure,
      },
      config.runtime.i18n,
    );
    if (decision.status) {
      const redirect = decision as { status: number; location: string; headers?: Record<string, string> };
      res
        .writeHead(redirect.status, { Location: redirect.location, 'Cache-Control': 'no-cache', ...redirect.headers })
        .end();
      return;
    }
    const served = 'rewrite' in decision && decision.rewrite ? decision.rewrite : url.pathname;
    const crawler = isBot(header('user-agent'));
    // A prerendered error page goes out with its status; a crawler gets the status alone, from the
    // page rendered on demand (src/middleware.ts), so it is left to that.
    const errorStatus = prerenderedErrorStatus(splitLocale(served).route);
    if (
      !(errorStatus !== null && crawler) &&
      (await serveStatic(
        req,
        res,
        served,
        decision.headers,
        (urlPath) => security.forStaticFile(url.pathname, urlPath),
        errorStatus ?? 200,
      ))
    )
      return;
    // Pages rendered on demand (the home page among them) carry the same Vary and locale cookie.
    for (const [name, value] of Object.entries(decision.headers ?? {})) res.setHeader(name, value);
    if (served !== url.pathname) req.url = served + url.search;
    // A guest's page may have been rendered for another guest a moment ago (page-cache.ts).
    if (pages && req.method === 'GET' && !parseCookies(req.headers.cookie)[SESSION_COOKIE_TOKEN]) {
      // Pages write their own address into links and cards (Astro.url): a page asked for under
      // another Host, or another forwarded origin, is another page, so no request can poison the next guest's.
      const request = {
        target: `${origin} ${header('host') ?? ''} ${served}${url.search}`,
        encoding: preferredEncoding(req.headers['accept-encoding']),
        crawler,
        header,
      };
      let answer = pages.answer(request);
      if (answer.kind === 'wait') {
        await answer.done;
        answer = pages.answer(request);
      }
      if (answer.kind === 'hit') return answerFromCache(res, answer);
      // Another render of it began meanwhile: this one renders too, without keeping it.
      if (answer.kind === 'render') capturePage(res, answer.done);
    }
    // Before the compression wrapper, which writes the head through it.
    security.completeRenderedPolicy(res, url.pathname);
    compressRenderedResponse(req, res);
    if (crawler) {
      res.on('finish', () => {
        if (res.statusCode >= 400)
          logger.warn('error page withheld from a crawler', {
            path: url.pathname,
            status: res.statusCode,
            userAgent: header('user-agent'),
          });
      });
    }
    res.on('finish', () => {
      if (res.statusCode < 500) outages.served();
    });
    // Astro sends its 500 page with status 500 whatever the page sets: the status is mended here.
    let retryAfter: number | null = null;
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((status: number, ...rest: unknown[]) =>
      (writeHead as (...args: unknown[]) => ServerResponse)(
        retryAfter !== null && status === 500 ? 503 : status,
        ...rest,
      )) as typeof res.writeHead;
    await astro(
      req,
      res,
      (error) => {
        if (error) logger.error('page rendering failed', { err: error, path: served });
        if (!res.headersSent) res.writeHead(error ? 500 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(error ? 'Internal Server Error' : `Page Not Found: ${served}`);
      },
      {
        site: locals,
        requestPath: served,
        crawler,
        outage: (error: unknown) => (retryAfter = outages.refuse(error, served)),
      },
    );
  };
}

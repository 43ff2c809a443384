import { defineMiddleware } from 'astro:middleware';
import { LOCALE_INFO, splitLocale } from './lib/i18n/locales.ts';

// Locale detection and redirects happen in server/site before Astro is reached; here each
// page rendered on demand is labelled with its language for caches and crawlers.
export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  // A crawler gets the error's status and no error page (SPEC §8); server/site logs it.
  if (context.locals.crawler && response.status >= 400) {
    return new Response(null, {
      status: response.status,
      headers: { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' },
    });
  }
  if (!context.isPrerendered && response.headers.get('Content-Type')?.startsWith('text/html')) {
    response.headers.set('Content-Language', LOCALE_INFO[splitLocale(context.url.pathname).locale].htmlLang);
  }
  return response;
});

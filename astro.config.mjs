// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { LOCALES, DEFAULT_LOCALE } from './src/lib/i18n/locales.ts';
import buildArtifacts from './src/integrations/build-artifacts.ts';
import mediaInfoWasm from './src/integrations/media-info-wasm.ts';
import offlineApp from './src/integrations/offline-app.ts';

// Static pages are prerendered for every locale; pages whose content depends on data
// (video, user, error codes, admin settings) opt out with `prerender = false` and are
// rendered on demand by the same Node process that serves the API (server/main.ts).
export default defineConfig({
  site: process.env.PUBLIC_SITE_URL || 'http://localhost:4321',
  output: 'static',
  // staticHeaders: the Content-Security-Policy of each prerendered page goes to dist/_headers.json
  // (not a <meta>, which cannot say frame-ancestors); server/http/security-headers.ts sends it.
  adapter: node({ mode: 'middleware', staticHeaders: true }),
  integrations: [react(), buildArtifacts(), mediaInfoWasm(), offlineApp()],
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  i18n: {
    locales: [...LOCALES],
    defaultLocale: DEFAULT_LOCALE,
    // Detection, redirects and the trailing-slash rule live in server/site (one place for
    // navigation rules, shared with the CDN story); Astro keeps the locale table and helpers.
    routing: 'manual',
  },
  // Route preloads are the shell's own, four at a time (src/lib/shell/prefetch.ts, SPEC §9).
  prefetch: false,
  devToolbar: { enabled: false },
  // Astro hashes the scripts and styles it emits (hydration, inlined scripts, inline <style>);
  // the server adds the rest of the policy at run time (docs/decisions/0013-security-headers.md).
  // Style attributes (React's style props, Astro's define:vars) are allowed as attributes only.
  security: {
    csp: {
      algorithm: 'SHA-256',
      styleDirective: { resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
  server: { port: Number(process.env.PORT) || 4321, host: process.env.HOST || 'localhost' },
});

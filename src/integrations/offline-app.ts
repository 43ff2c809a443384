import type { AstroIntegration } from 'astro';
import { mkdir, readFile, writeFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { LOCALES, localizePath, type Locale } from '../lib/i18n/locales.ts';

/** Icon sizes of the web app manifest (and the apple touch icon), drawn from public/favicon.svg. */
export const ICON_SIZES = [48, 72, 96, 144, 192, 256, 384, 512] as const;
export const THEME_COLOR = '#f06e8e';
export const BACKGROUND_COLOR = '#fbf7f9';

/** The manifest of one locale: its name and description, started at its home. */
export function webManifest(locale: Locale, name: string, shortName: string, description: string, lang: string) {
  return {
    id: '/',
    name,
    short_name: shortName,
    description,
    lang,
    start_url: localizePath('/', locale),
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    categories: ['entertainment', 'social', 'video'],
    icons: [
      ...ICON_SIZES.map((size) => ({
        src: `/icons/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
        purpose: 'any',
      })),
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

async function writeIcons(root: string, svg: Buffer): Promise<void> {
  const { default: sharp } = await import('sharp');
  await mkdir(join(root, 'icons'), { recursive: true });
  for (const size of ICON_SIZES) {
    await sharp(svg, { density: Math.ceil((72 * size) / 64) })
      .resize(size, size)
      .png()
      .toFile(join(root, 'icons', `icon-${size}.png`));
  }
  // Maskable: the mark inside the middle 80 % safe zone, on the background colour.
  const inner = Math.round(512 * 0.6);
  const mark = await sharp(svg, { density: 600 }).resize(inner, inner).png().toBuffer();
  await sharp({ create: { width: 512, height: 512, channels: 4, background: THEME_COLOR } })
    .composite([{ input: mark, gravity: 'centre' }])
    .png()
    .toFile(join(root, 'icons', 'maskable-512.png'));
  await sharp(svg, { density: 300 })
    .resize(180, 180)
    .flatten({ background: BACKGROUND_COLOR })
    .png()
    .toFile(join(root, 'icons', 'apple-touch-icon.png'));
  // The share card of pages without a picture of their own (src/lib/share/share.ts): the mark on the theme colour, 1200×630.
  const cardMark = await sharp(svg, { density: 900 }).resize(360, 360).png().toBuffer();
  await sharp({ create: { width: 1200, height: 630, channels: 4, background: THEME_COLOR } })
    .composite([{ input: cardMark, gravity: 'centre' }])
    .flatten({ background: THEME_COLOR })
    .png()
    .toFile(join(root, 'icons', 'share-card.png'));
}

/** The hashed files a page loads (its scripts and styles, and what those scripts import), site-absolute. */
export async function assetsOfPage(root: string, htmlFile: string): Promise<string[]> {
  const html = await readFile(htmlFile, 'utf8');
  const found = new Set<string>();
  const queue = [...html.matchAll(/(?:src|href)="(\/_astro\/[^"]+)"/g)].map((m) => m[1]);
  while (queue.length) {
    const url = queue.shift()!;
    if (found.has(url)) continue;
    found.add(url);
    if (!url.endsWith('.js')) continue;
    const code = await readFile(join(root, url), 'utf8').catch(() => '');
    // Static imports only: what runs on every page; dynamic ones load (and are cached) when used.
    for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\/[^"']+)["']/g))
      queue.push(posix.join(posix.dirname(url), m[1]));
  }
  return [...found];
}

/**
 * The installable, offline site: icons and a manifest per locale (`/_app/manifest-{locale}.webmanifest`),
 * and `/sw.js` built from src/sw/service-worker.ts with Workbox's precache list injected.
 */
export default function offlineApp(): AstroIntegration {
  return {
    name: 'kiraboshi:offline-app',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const projectRoot = process.cwd();
        await writeIcons(root, await readFile(join(projectRoot, 'public', 'favicon.svg')));
        const { messagesFor } = await import('../lib/i18n/catalogs.ts');
        const { LOCALE_INFO } = await import('../lib/i18n/locales.ts');
        await mkdir(join(root, '_app'), { recursive: true });
        for (const locale of LOCALES) {
          const site = (messagesFor(locale) as { site: { name: string; description: string } }).site;
          const manifest = webManifest(locale, site.name, site.name, site.description, LOCALE_INFO[locale].htmlLang);
          await writeFile(join(root, '_app', `manifest-${locale}.webmanifest`), JSON.stringify(manifest));
        }

        const offlineHtml = join(root, 'offline', 'index.html');
        if (!existsSync(offlineHtml)) throw new Error('the offline page was not built');
        const shell = (await assetsOfPage(root, offlineHtml)).map((url) => url.slice(1));
        const { build } = await import('esbuild');
        const bundled = join(tmpdir(), `kiraboshi-sw-${process.pid}.js`);
        await build({
          entryPoints: [join(projectRoot, 'src', 'sw', 'service-worker.ts')],
          bundle: true,
          format: 'iife',
          minify: true,
          target: 'es2022',
          outfile: bundled,
          logLevel: 'error',
          define: { 'process.env.NODE_ENV': '"production"' },
        });
        const { injectManifest } = await import('workbox-build');
        const { count, size, warnings } = await injectManifest({
          swSrc: bundled,
          swDest: join(root, 'sw.js'),
          globDirectory: root,
          globPatterns: [
            ...shell,
            'offline/index.html',
            '_i18n/zhs/messages.json',
            'favicon.svg',
            'icons/icon-192.png',
            '_app/manifest-zhs.webmanifest',
          ],
          // Hashed names need no revision; pages are asked for by their address, not their file.
          dontCacheBustURLsMatching: /^_astro\//,
          manifestTransforms: [
            async (entries) => ({
              manifest: entries.map((entry) => ({
                ...entry,
                url: `/${entry.url.replace(/(^|\/)index\.html$/, '').replace(/\/$/, '')}`,
              })),
              warnings: [],
            }),
          ],
          maximumFileSizeToCacheInBytes: 1024 * 1024,
        });
        await rm(bundled, { force: true });
        for (const warning of warnings) logger.warn(warning);
        logger.info(
          `service worker: ${count} files precached (${Math.round(size / 1024)} KB), icons ${ICON_SIZES.join('/')}, ${LOCALES.length} manifests`,
        );
      },
    },
  };
}

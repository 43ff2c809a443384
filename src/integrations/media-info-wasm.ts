import type { AstroIntegration } from 'astro';
import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEDIA_INFO_WASM } from '../lib/navigation/routes.ts';

/**
 * Puts mediainfo.js's WebAssembly module at the site root (/MediaInfoModule.wasm, SPEC §2), where
 * the uploader's media-info check loads it from. Copied from the installed package at each build,
 * so the binary is never committed and always matches the package's JavaScript.
 */
export default function mediaInfoWasm(): AstroIntegration {
  return {
    name: 'kiraboshi:media-info-wasm',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const source = createRequire(import.meta.url).resolve(`mediainfo.js/${MEDIA_INFO_WASM}`);
        await copyFile(source, join(fileURLToPath(dir), MEDIA_INFO_WASM));
        logger.info(`copied ${MEDIA_INFO_WASM} to the site root`);
      },
    },
  };
}

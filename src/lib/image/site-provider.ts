// The image provider the pages and islands use: PUBLIC_IMAGE_PROVIDER(_URL) as built in. The
// server refuses to start with a setting that cannot work (server/config.ts); a page built with
// one falls back to the site's own files rather than showing no pictures.
import { publicConfig } from '../public-config.ts';
import { LOCAL_IMAGES, readImageProvider, type ImageProvider } from './provider.ts';

function configured(): ImageProvider {
  try {
    return readImageProvider(publicConfig.imageProvider, publicConfig.imageProviderUrl);
  } catch (error) {
    console.warn(error);
    return LOCAL_IMAGES;
  }
}

export const siteImages: ImageProvider = configured();

/**
 * Shows the chosen wallpaper behind every page: a fixed layer under the content (its opacity
 * and blur from the BackgroundImage setting) while the site's surfaces keep `tint` of their
 * own colour. The shell loads this module only when a wallpaper is chosen.
 */
import { $backgroundImage, updateBackgroundImage, type BackgroundImageSetting } from '../stores/background-image.ts';
import { writeWallpaperAccent } from './accent.ts';
import { WallpaperDb } from './db.ts';
import { NO_WALLPAPER_KEY } from './list.ts';

const LAYER_ID = 'wallpaper-layer';
let shownUrl = '';

/** Puts an image (or none) behind the page with the setting's opacity, tint and blur. */
export function renderWallpaper(image: Blob | null, setting: BackgroundImageSetting): void {
  const root = document.documentElement;
  let layer = document.getElementById(LAYER_ID);
  if (!image) {
    layer?.remove();
    root.removeAttribute('data-wallpaper');
    root.style.removeProperty('--wallpaper-tint');
    if (shownUrl) URL.revokeObjectURL(shownUrl);
    shownUrl = '';
    return;
  }
  if (!layer) {
    layer = document.createElement('div');
    layer.id = LAYER_ID;
    layer.className = 'wallpaper-layer';
    layer.setAttribute('aria-hidden', 'true');
    document.body.prepend(layer);
  }
  const url = URL.createObjectURL(image);
  layer.style.backgroundImage = `url("${url}")`;
  if (shownUrl) URL.revokeObjectURL(shownUrl);
  shownUrl = url;
  styleWallpaper(setting);
}

/** Applies opacity, tint and blur alone (sliders move these without reloading the image). */
export function styleWallpaper(setting: BackgroundImageSetting): void {
  const layer = document.getElementById(LAYER_ID);
  if (!layer) return;
  const root = document.documentElement;
  root.setAttribute('data-wallpaper', '');
  root.style.setProperty('--wallpaper-tint', String(setting.tint));
  layer.style.opacity = String(setting.opacity);
  layer.style.filter = setting.blur > 0 ? `blur(${setting.blur}px)` : '';
  // A blurred edge would show the page through: grow the image past the viewport.
  layer.style.inset = setting.blur > 0 ? `-${setting.blur * 2}px` : '0';
}

/** On page load: shows the stored choice, or forgets a choice whose image is gone. */
export async function restoreWallpaper(): Promise<void> {
  const setting = $backgroundImage.get();
  if (setting.imageIndex === NO_WALLPAPER_KEY) return;
  const db = await WallpaperDb.open();
  try {
    const record = await db.get(setting.imageIndex);
    if (!record) {
      updateBackgroundImage({ imageIndex: NO_WALLPAPER_KEY });
      writeWallpaperAccent(null);
      return;
    }
    renderWallpaper(record.imageData, setting);
    writeWallpaperAccent(record.color || null);
  } finally {
    db.close();
  }
}

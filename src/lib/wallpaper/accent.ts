/**
 * The wallpaper accent, shared with the theme (its "wallpaper" palette and first-paint script
 * read it): the CSS property on the root element and the same value in local storage, both
 * removed when no wallpaper is chosen.
 */
export const WALLPAPER_ACCENT_PROPERTY = '--wallpaper-accent';
export const WALLPAPER_ACCENT_STORAGE_KEY = 'wallpaper-accent';

export function writeWallpaperAccent(color: string | null): void {
  const root = document.documentElement;
  if (color) root.style.setProperty(WALLPAPER_ACCENT_PROPERTY, color);
  else root.style.removeProperty(WALLPAPER_ACCENT_PROPERTY);
  try {
    if (color) localStorage.setItem(WALLPAPER_ACCENT_STORAGE_KEY, color);
    else localStorage.removeItem(WALLPAPER_ACCENT_STORAGE_KEY);
  } catch {
    /* storage refused (private mode): the property still holds for this page */
  }
  root.dispatchEvent(new CustomEvent('wallpaper-accent', { detail: color }));
}

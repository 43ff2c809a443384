import { useCallback, useEffect, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useHydratedStore } from '../use-hydrated-store.ts';
import {
  $backgroundImage,
  DEFAULT_BACKGROUND_IMAGE,
  BLUR_MAX,
  updateBackgroundImage,
  type BackgroundImageSetting,
} from '../../lib/stores/background-image.ts';
import { WallpaperDb, WallpaperQuotaError } from '../../lib/wallpaper/db.ts';
import {
  NO_WALLPAPER_KEY,
  PLACEHOLDER_ITEM,
  applyShifts,
  clampPosition,
  orderedWithPlaceholder,
  shiftsAfterDelete,
  shiftsForMove,
  type WallpaperItem,
} from '../../lib/wallpaper/list.ts';
import { textColourOver } from '../../lib/wallpaper/colour.ts';
import { extractDominantColour } from '../../lib/wallpaper/palette.ts';
import { NotAnImageError, prepareWallpaper } from '../../lib/wallpaper/downscale.ts';
import { renderWallpaper, styleWallpaper } from '../../lib/wallpaper/background.ts';
import { writeWallpaperAccent } from '../../lib/wallpaper/accent.ts';
import { withCircularTransition } from '../../lib/wallpaper/transition.ts';
import { showToast } from '../../lib/stores/toast.ts';
import './wallpaper.css';

type Persistence = 'unknown' | 'unsupported' | 'persisted' | 'not-persisted';

/** Every image's blob, kept while the page lives (the tiles' URLs come from them). */
interface LoadedItem extends WallpaperItem {
  blob: Blob;
}

/**
 * Settings > Appearance > Wallpapers (SPEC §3-§5): images kept in the browser (IndexedDB), added
 * from files, ordered by drag or Alt+arrow keys, deleted; choosing one shows it behind every page
 * and makes its dominant colour the wallpaper accent.
 */
export default function WallpaperManager({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const setting = useHydratedStore($backgroundImage, DEFAULT_BACKGROUND_IMAGE);
  const db = useRef<WallpaperDb | null>(null);
  const [items, setItems] = useState<LoadedItem[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const [persistence, setPersistence] = useState<Persistence>('unknown');
  const dragged = useRef<number | null>(null);
  const tiles = useRef(new Map<number, HTMLButtonElement>());

  useEffect(() => {
    let live = true;
    (async () => {
      const opened = await WallpaperDb.open();
      if (!live) {
        opened.close();
        return;
      }
      db.current = opened;
      const stored = await opened.list();
      if (!live) return;
      setItems(
        stored.map(({ key, displayIndex, record }) => ({
          key,
          displayIndex,
          filename: record.filename,
          color: record.color,
          blob: record.imageData,
          url: URL.createObjectURL(record.imageData),
        })),
      );
    })().catch((failure) => {
      console.error('wallpapers could not be opened', failure);
      if (live) {
        setItems([]);
        setError(t('wallpaper.unavailable'));
      }
    });
    if (navigator.storage?.persisted)
      navigator.storage.persisted().then(
        (yes) => live && setPersistence(yes ? 'persisted' : 'not-persisted'),
        () => undefined,
      );
    else setPersistence('unsupported');
    return () => {
      live = false;
      db.current?.close();
      db.current = null;
    };
  }, [t]);

  // Blob URLs of tiles die with the island.
  const urls = useRef<string[]>([]);
  useEffect(() => {
    urls.current = items?.map((item) => item.url) ?? [];
  }, [items]);
  useEffect(() => () => urls.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const choose = useCallback(
    (item: WallpaperItem & { blob?: Blob }, origin?: { x: number; y: number }) => {
      const next: BackgroundImageSetting = { ...$backgroundImage.get(), imageIndex: item.key };
      withCircularTransition(origin, () => {
        updateBackgroundImage({ imageIndex: item.key });
        renderWallpaper(item.blob ?? null, next);
        writeWallpaperAccent(item.key === NO_WALLPAPER_KEY ? null : item.color || null);
      });
      setAnnouncement(
        item.key === NO_WALLPAPER_KEY ? t('wallpaper.noneChosen') : t('wallpaper.chosen', { name: item.filename }),
      );
    },
    [t],
  );

  const askPersistence = async () => {
    if (!navigator.storage?.persist) {
      setPersistence('unsupported');
      return;
    }
    const granted = await navigator.storage.persist().catch(() => false);
    setPersistence(granted ? 'persisted' : 'not-persisted');
  };

  const addFiles = async (files: File[]) => {
    const store = db.current;
    if (!store || !files.length) return;
    setBusy(true);
    setError('');
    let added: LoadedItem | null = null;
    try {
      for (const file of files) {
        let image: Blob;
        try {
          image = await prepareWallpaper(file);
        } catch (failure) {
          if (failure instanceof NotAnImageError) {
            setError(t('wallpaper.notAnImage', { name: file.name }));
            continue;
          }
          throw failure;
        }
        const color = (await extractDominantColour(image).catch(() => null)) ?? '';
        const key = await store.add({ imageData: image, filename: file.name, color });
        if (key === null) continue;
        const current = await store.list();
        const displayIndex = current.find((entry) => entry.key === key)?.displayIndex ?? 0;
        added = { key, displayIndex, filename: file.name, color, blob: image, url: URL.createObjectURL(image) };
        const item = added;
        setItems((shown) => [...(shown ?? []), item]);
      }
      if (added) {
        choose(added);
        setAnnouncement(t('wallpaper.added', { name: added.filename }));
        if (persistence === 'not-persisted') void askPersistence();
      }
    } catch (failure) {
      if (failure instanceof WallpaperQuotaError) setError(t('wallpaper.quota'));
      else {
        console.error('a wallpaper could not be added', failure);
        setError(t('wallpaper.addFailed'));
      }
    } finally {
      setBusy(false);
    }
  };

  const remove = async (item: LoadedItem) => {
    const store = db.current;
    if (!store || !items || !(await store.remove(item.key))) return;
    const shifts = shiftsAfterDelete(items, item.key) ?? new Map();
    setItems(
      applyShifts(
        items.filter((i) => i.key !== item.key),
        shifts,
      ),
    );
    URL.revokeObjectURL(item.url);
    // Deleting the chosen image resets the choice to none (SPEC §4).
    if ($backgroundImage.get().imageIndex === item.key) choose(PLACEHOLDER_ITEM);
    setAnnouncement(t('wallpaper.deleted', { name: item.filename }));
    showToast({ message: t('wallpaper.deleted', { name: item.filename }), severity: 'success' });
  };

  const move = async (item: LoadedItem, target: number) => {
    const store = db.current;
    if (!store || !items) return;
    const to = clampPosition(target, items.length);
    if (to === item.displayIndex || !(await store.move(item.key, to))) return;
    setItems((shown) => applyShifts(shown ?? [], shiftsForMove(shown ?? [], item.key, to) ?? new Map()));
    setAnnouncement(t('wallpaper.moved', { name: item.filename, position: to + 1 }));
    requestAnimationFrame(() => tiles.current.get(item.key)?.focus());
  };

  const onTileKey = (event: KeyboardEvent, item: LoadedItem) => {
    if (!event.altKey) return;
    const step =
      event.key === 'ArrowLeft' || event.key === 'ArrowUp'
        ? -1
        : event.key === 'ArrowRight' || event.key === 'ArrowDown'
          ? 1
          : 0;
    if (!step) return;
    event.preventDefault();
    void move(item, item.displayIndex + step);
  };

  const onDrop = (event: DragEvent, target: LoadedItem | null) => {
    event.preventDefault();
    if (event.dataTransfer.files.length) {
      void addFiles(Array.from(event.dataTransfer.files));
      return;
    }
    const key = dragged.current;
    dragged.current = null;
    const source = items?.find((i) => i.key === key);
    if (source && target && source.key !== target.key) void move(source, target.displayIndex);
  };

  const clickOrigin = (event: MouseEvent) => (event.detail === 0 ? undefined : { x: event.clientX, y: event.clientY }); // a keyboard "click" has no pointer

  const setSlider = (change: Partial<BackgroundImageSetting>) => {
    updateBackgroundImage(change);
    styleWallpaper($backgroundImage.get());
  };

  const ordered = items ? orderedWithPlaceholder<LoadedItem>(items, { ...PLACEHOLDER_ITEM, blob: new Blob() }) : null;
  return (
    <section
      className="card wallpaper-manager"
      aria-labelledby="wallpaper-title"
      data-wallpaper-manager={items ? 'ready' : 'loading'}
    >
      <h2 id="wallpaper-title">{t('wallpaper.title')}</h2>
      <p className="field-hint">{t('wallpaper.intro')}</p>
      <div className="wallpaper-actions">
        <label className={`button primary${busy || !items ? ' disabled' : ''}`}>
          <input
            type="file"
            accept="image/*"
            multiple
            className="visually-hidden"
            disabled={busy || !items}
            data-wallpaper-input
            onChange={(event) => {
              void addFiles(Array.from(event.currentTarget.files ?? []));
              event.currentTarget.value = '';
            }}
          />
          {busy ? t('wallpaper.adding') : t('wallpaper.add')}
        </label>
        <p className="wallpaper-persistence" data-persistence={persistence}>
          {t(`wallpaper.persistence.${persistence}`)}
          {persistence === 'not-persisted' && (
            <button type="button" className="link-button" onClick={() => void askPersistence()}>
              {t('wallpaper.persistAsk')}
            </button>
          )}
        </p>
      </div>
      {error && (
        <p className="form-error" role="alert" data-wallpaper-error>
          {error}
        </p>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <p className="field-hint" id="wallpaper-order-hint">
        {t('wallpaper.reorderHint')}
      </p>
      {!ordered ? (
        <p aria-busy="true">…</p>
      ) : (
        <ul
          className="wallpaper-grid"
          aria-describedby="wallpaper-order-hint"
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => onDrop(e, null)}
        >
          {ordered.map((item) => {
            const placeholder = item.key === NO_WALLPAPER_KEY;
            const selected = setting.imageIndex === item.key;
            const title = textColourOver(item.color, 'title') ?? undefined;
            const body = textColourOver(item.color, 'body') ?? undefined;
            return (
              <li
                key={item.key}
                className="wallpaper-tile"
                data-wallpaper-key={item.key}
                data-display-index={item.displayIndex}
                draggable={!placeholder}
                onDragStart={() => (dragged.current = item.key)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.stopPropagation();
                  onDrop(e, placeholder ? null : item);
                }}
              >
                <button
                  type="button"
                  className="wallpaper-choose"
                  aria-pressed={selected}
                  ref={(node) => {
                    if (node) tiles.current.set(item.key, node);
                    else tiles.current.delete(item.key);
                  }}
                  style={
                    placeholder
                      ? undefined
                      : { backgroundImage: `url("${item.url}")`, backgroundColor: item.color || undefined }
                  }
                  onClick={(event) => choose(item, clickOrigin(event))}
                  onKeyDown={placeholder ? undefined : (e) => onTileKey(e, item)}
                  aria-label={
                    placeholder
                      ? t('wallpaper.none')
                      : t('wallpaper.tileLabel', { name: item.filename, position: item.displayIndex + 1 })
                  }
                >
                  {placeholder ? (
                    <span className="wallpaper-none">{t('wallpaper.none')}</span>
                  ) : (
                    <span
                      className="wallpaper-caption"
                      style={{ backgroundColor: item.color ? `${item.color}cc` : undefined }}
                    >
                      <span className="wallpaper-name" style={{ color: title }}>
                        {item.filename}
                      </span>
                      {item.color && (
                        <span className="wallpaper-colour" style={{ color: body }}>
                          {item.color}
                        </span>
                      )}
                    </span>
                  )}
                </button>
                {!placeholder && (
                  <div className="wallpaper-tile-actions">
                    <button
                      type="button"
                      className="icon-button"
                      onClick={() => void move(item, item.displayIndex - 1)}
                      disabled={item.displayIndex === 0}
                      aria-label={t('wallpaper.moveEarlier', { name: item.filename })}
                    >
                      ←
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      onClick={() => void move(item, item.displayIndex + 1)}
                      disabled={item.displayIndex === (items?.length ?? 1) - 1}
                      aria-label={t('wallpaper.moveLater', { name: item.filename })}
                    >
                      →
                    </button>
                    <button
                      type="button"
                      className="icon-button danger"
                      onClick={() => void remove(item)}
                      data-wallpaper-delete
                      aria-label={t('wallpaper.delete', { name: item.filename })}
                    >
                      ✕
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <fieldset className="wallpaper-sliders">
        <legend>{t('wallpaper.display')}</legend>
        <label>
          {t('wallpaper.opacity')} <output>{Math.round(setting.opacity * 100)}%</output>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={setting.opacity}
            onChange={(e) => setSlider({ opacity: Number(e.currentTarget.value) })}
          />
        </label>
        <label>
          {t('wallpaper.tint')} <output>{Math.round(setting.tint * 100)}%</output>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={setting.tint}
            onChange={(e) => setSlider({ tint: Number(e.currentTarget.value) })}
          />
        </label>
        <label>
          {t('wallpaper.blur')} <output>{setting.blur} px</output>
          <input
            type="range"
            min={0}
            max={BLUR_MAX}
            step={1}
            value={setting.blur}
            onChange={(e) => setSlider({ blur: Number(e.currentTarget.value) })}
          />
        </label>
      </fieldset>
    </section>
  );
}

import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
  type WheelEvent as ReactWheelEvent,
} from 'react';
import type { PhotoImage } from '../../lib/api/contracts/photo.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { pictureSources } from '../../lib/photo/picture.ts';
import { siteImages } from '../../lib/image/site-provider.ts';
import { clampView, zoomAt, type View } from '../../lib/photo/zoom.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { call } from '../../lib/api/client.ts';

const SWIPE_PX = 50;
const DOUBLE_TAP_MS = 300;
const MAX_SCALE = 6;
const IDENTITY: View = { scale: 1, x: 0, y: 0 };

/** Camera values kept by the uploader's choice, as one line (model, lens, exposure). */
function cameraLine(camera: PhotoImage['camera']): string {
  if (!camera) return '';
  const c = camera as Record<string, string | number | undefined>;
  const exposure =
    typeof c.exposureTime === 'number'
      ? c.exposureTime < 1
        ? `1/${Math.round(1 / c.exposureTime)} s`
        : `${c.exposureTime} s`
      : '';
  return [
    [c.make, c.model].filter(Boolean).join(' '),
    c.lens,
    typeof c.focalLength === 'number' ? `${c.focalLength} mm` : '',
    typeof c.fNumber === 'number' ? `ƒ/${c.fNumber}` : '',
    exposure,
    typeof c.iso === 'number' ? `ISO ${c.iso}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The photo viewer: one image at a time with its alt text as the caption; zoom by wheel, pinch,
 * double-tap (or double-click) and the +/− keys, drag to pan a zoomed image; swipe, the arrow
 * buttons, the thumbnails and ←/→ to move; full screen (F). Zoom is a CSS transform of the image
 * (no re-layout), kept inside the stage by clampView.
 */
export default function PhotoViewer({
  locale,
  messages,
  images,
  title,
  photoId,
}: {
  locale: Locale;
  messages: Messages;
  images: PhotoImage[];
  title: string;
  photoId: number;
}) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  // A member's visit goes into their history (as a video's view does), once per page view.
  useEffect(() => {
    if (self.isLogined)
      void call('POST history/record', { videoId: photoId, mediaType: 'photo', anchor: 0 }).catch(() => undefined);
  }, [self.isLogined, photoId]);
  const [index, setIndex] = useState(0);
  const [view, setView] = useState<View>(IDENTITY);
  const [fullscreen, setFullscreen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const img = useRef<HTMLImageElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ startX: number; startY: number; view: View; pinchDistance?: number; moved: boolean }>(null);
  const lastTap = useRef(0);
  const image = images[index];
  const sources = pictureSources(image, siteImages);

  /** The stage and the image's unscaled box, which zoom and pan are measured against. */
  const boxes = useCallback(() => {
    const s = stage.current!.getBoundingClientRect();
    const i = img.current!;
    return {
      stage: { width: s.width, height: s.height, left: s.left, top: s.top },
      image: { width: i.offsetWidth, height: i.offsetHeight, left: i.offsetLeft, top: i.offsetTop },
    };
  }, []);
  const applyZoom = useCallback(
    (factor: number, clientX?: number, clientY?: number) => {
      if (!stage.current || !img.current) return;
      const b = boxes();
      const x = (clientX ?? b.stage.left + b.stage.width / 2) - b.stage.left;
      const y = (clientY ?? b.stage.top + b.stage.height / 2) - b.stage.top;
      setView((v) => clampView(zoomAt(v, factor, x - b.image.left, y - b.image.top, MAX_SCALE), b.image, b.stage));
    },
    [boxes],
  );

  const go = useCallback(
    (to: number) => {
      if (to < 0 || to >= images.length) return;
      setIndex(to);
      setView(IDENTITY);
    },
    [images.length],
  );

  const toggleFullscreen = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.current?.requestFullscreen?.().catch(() => undefined);
  }, []);
  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === root.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Keys act while the viewer has focus (or in full screen), so they never fight the page's own.
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement) return;
    const actions: Record<string, () => void> = {
      ArrowLeft: () => go(index - 1),
      ArrowRight: () => go(index + 1),
      Home: () => go(0),
      End: () => go(images.length - 1),
      '+': () => applyZoom(1.5),
      '=': () => applyZoom(1.5),
      '-': () => applyZoom(1 / 1.5),
      '0': () => setView(IDENTITY),
      f: toggleFullscreen,
      F: toggleFullscreen,
    };
    const action = actions[event.key];
    if (action && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      action();
    }
  };

  // While the post is open, ← and → turn the images wherever the focus is (on the page itself,
  // not in a field, a menu or a player that wants the arrows): nobody has to click the viewer first.
  useEffect(() => {
    const onDocumentKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      const target = event.target as Element | null;
      if (target && root.current?.contains(target)) return; // the viewer's own handler has it
      if (
        target instanceof Element &&
        target.closest(
          'input, textarea, select, [contenteditable], [role="menu"], [role="slider"], [role="listbox"], [role="tablist"], dialog, video, audio',
        )
      )
        return;
      event.preventDefault();
      go(index + (event.key === 'ArrowLeft' ? -1 : 1));
    };
    document.addEventListener('keydown', onDocumentKey);
    return () => document.removeEventListener('keydown', onDocumentKey);
  }, [go, index]);

  const onWheel = (event: ReactWheelEvent) => {
    if (!event.deltaY) return;
    applyZoom(Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0025)), event.clientX, event.clientY);
  };
  // React's wheel listener is passive; the page must not scroll while the wheel zooms.
  useEffect(() => {
    const el = stage.current;
    const stop = (e: WheelEvent) => e.preventDefault();
    el?.addEventListener('wheel', stop, { passive: false });
    return () => el?.removeEventListener('wheel', stop);
  }, []);

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const onPointerDown = (event: ReactPointerEvent) => {
    if ((event.target as HTMLElement).closest('button')) return;
    stage.current?.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture.current = {
      startX: event.clientX,
      startY: event.clientY,
      view,
      moved: false,
      ...(pointers.current.size === 2 ? { pinchDistance: distance() } : {}),
    };
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const g = gesture.current;
    if (pointers.current.size === 2 && g.pinchDistance) {
      const [a, b] = [...pointers.current.values()];
      const b2 = boxes();
      const factor = distance() / g.pinchDistance;
      const cx = (a.x + b.x) / 2 - b2.stage.left - b2.image.left;
      const cy = (a.y + b.y) / 2 - b2.stage.top - b2.image.top;
      g.moved = true;
      setView(clampView(zoomAt(g.view, factor, cx, cy, MAX_SCALE), b2.image, b2.stage));
      return;
    }
    const dx = event.clientX - g.startX;
    const dy = event.clientY - g.startY;
    if (Math.abs(dx) + Math.abs(dy) > 6) g.moved = true;
    if (g.view.scale > 1) {
      const b2 = boxes();
      setView(clampView({ ...g.view, x: g.view.x + dx, y: g.view.y + dy }, b2.image, b2.stage));
    }
  };
  const onPointerUp = (event: ReactPointerEvent) => {
    const g = gesture.current;
    const wasPinch = pointers.current.size === 2;
    pointers.current.delete(event.pointerId);
    if (!g || wasPinch) {
      // The second finger lifted: what stays down starts a new pan from the current view.
      if (pointers.current.size === 1) {
        const [p] = [...pointers.current.values()];
        gesture.current = { startX: p.x, startY: p.y, view, moved: true };
      }
      return;
    }
    gesture.current = null;
    const dx = event.clientX - g.startX;
    if (g.view.scale === 1 && Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(event.clientY - g.startY)) {
      go(dx < 0 ? index + 1 : index - 1);
      return;
    }
    if (!g.moved) {
      const now = Date.now();
      if (now - lastTap.current < DOUBLE_TAP_MS) {
        lastTap.current = 0;
        if (view.scale > 1) setView(IDENTITY);
        else applyZoom(2.5, event.clientX, event.clientY);
      } else lastTap.current = now;
    }
  };

  const camera = cameraLine(image.camera);
  return (
    <div
      className="photo-viewer"
      ref={root}
      tabIndex={0}
      onKeyDown={onKeyDown}
      role="region"
      aria-roledescription={t('photo.viewer.role')}
      aria-label={title}
      data-photo-viewer
      data-index={index}
      data-scale={view.scale.toFixed(2)}
    >
      <div
        className="photo-stage"
        ref={stage}
        data-zoomed={view.scale > 1}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        <span className="photo-counter" aria-live="polite">
          {t('photo.viewer.position', { index: index + 1, count: images.length })}
        </span>
        <div className="photo-tools">
          <button
            type="button"
            onClick={() => applyZoom(1.5)}
            aria-label={t('photo.viewer.zoomIn')}
            title={t('photo.viewer.zoomIn')}
          >
            ＋
          </button>
          <button
            type="button"
            onClick={() => applyZoom(1 / 1.5)}
            aria-label={t('photo.viewer.zoomOut')}
            title={t('photo.viewer.zoomOut')}
            disabled={view.scale <= 1}
          >
            －
          </button>
          <button
            type="button"
            onClick={toggleFullscreen}
            aria-pressed={fullscreen}
            aria-label={t(fullscreen ? 'photo.viewer.exitFullscreen' : 'photo.viewer.fullscreen')}
            title={t(fullscreen ? 'photo.viewer.exitFullscreen' : 'photo.viewer.fullscreen')}
          >
            {fullscreen ? '⤡' : '⤢'}
          </button>
        </div>
        {images.length > 1 && (
          <>
            <button
              type="button"
              className="photo-nav"
              data-dir="prev"
              onClick={() => go(index - 1)}
              disabled={index === 0}
              aria-label={t('photo.viewer.previous')}
            >
              ‹
            </button>
            <button
              type="button"
              className="photo-nav"
              data-dir="next"
              onClick={() => go(index + 1)}
              disabled={index === images.length - 1}
              aria-label={t('photo.viewer.next')}
            >
              ›
            </button>
          </>
        )}
        {sources ? (
          <picture key={image.imageId}>
            {sources.avif && <source type="image/avif" srcSet={sources.avif} sizes="100vw" />}
            {sources.webp && <source type="image/webp" srcSet={sources.webp} sizes="100vw" />}
            <img
              ref={img}
              src={sources.src}
              srcSet={sources.jpeg}
              sizes="100vw"
              alt={image.alt}
              width={image.width}
              height={image.height}
              draggable={false}
              style={{
                transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
                backgroundImage: image.placeholder ? `url(${image.placeholder})` : undefined,
              }}
            />
          </picture>
        ) : (
          <p className="photo-tile-empty">{t('photo.processing')}</p>
        )}
      </div>
      <p className="photo-caption" data-alt-text>
        {image.alt}
        {camera && (
          <span className="photo-camera" data-camera>
            {camera}
          </span>
        )}
      </p>
      {images.length > 1 && (
        <ol className="photo-thumbs" aria-label={t('photo.viewer.thumbnails')}>
          {images.map((thumb, i) => {
            const s = pictureSources(thumb, siteImages);
            return (
              <li key={thumb.imageId}>
                <button
                  type="button"
                  aria-current={i === index}
                  onClick={() => go(i)}
                  aria-label={t('photo.viewer.show', { index: i + 1, alt: thumb.alt })}
                >
                  {s ? <img src={s.smallest} alt="" width={56} height={56} loading="lazy" /> : <span>{i + 1}</span>}
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

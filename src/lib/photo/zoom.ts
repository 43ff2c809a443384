/**
 * The viewer's zoom and pan as plain arithmetic (framework-free, unit-tested): the image is drawn
 * translated by (x, y) and scaled by `scale` around its top-left corner.
 */
export interface View {
  scale: number;
  x: number;
  y: number;
}
interface Box {
  width: number;
  height: number;
  left: number;
  top: number;
}

/** Zooms by `factor` keeping the point (px, py) of the image box (unscaled coordinates) where it is. */
export function zoomAt(view: View, factor: number, px: number, py: number, maxScale: number): View {
  const scale = Math.min(maxScale, Math.max(1, view.scale * factor));
  const ratio = scale / view.scale;
  return { scale, x: px - (px - view.x) * ratio, y: py - (py - view.y) * ratio };
}

/**
 * Keeps a zoomed image covering the stage where it can: never panned past its edges, and
 * centred on an axis where it is smaller than the stage. At scale 1 the view is the identity.
 */
export function clampView(view: View, image: Box, stage: Pick<Box, 'width' | 'height'>): View {
  if (view.scale <= 1) return { scale: 1, x: 0, y: 0 };
  const axis = (offset: number, size: number, start: number, stageSize: number) => {
    const scaled = size * view.scale;
    // Screen position of the scaled image's leading edge is start + offset.
    if (scaled <= stageSize) return (stageSize - scaled) / 2 - start;
    return Math.min(-start, Math.max(stageSize - scaled - start, offset));
  };
  return {
    scale: view.scale,
    x: axis(view.x, image.width, image.left, stage.width),
    y: axis(view.y, image.height, image.top, stage.height),
  };
}

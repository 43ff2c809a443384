/**
 * /dev/test-mobile: what a phone tells the page (viewport, pixel ratio, orientation, zoom, touch
 * points, whether the site runs installed, the safe areas around a notch) and a touch test that
 * marks every finger down. Texts come from the page's data attributes (already in its language).
 */
import { fill } from './dev-template.ts';

const SIDES = ['top', 'right', 'bottom', 'left'] as const;

export function wireMobile(root: HTMLElement): void {
  const out = (name: string) => root.querySelector<HTMLElement>(`[data-mobile="${name}"]`)!;
  const words = JSON.parse(root.dataset.words ?? '{}') as Record<string, string>;
  // env() is only readable through a property that uses it: a hidden probe padded by the safe areas.
  const probe = document.createElement('div');
  probe.style.cssText =
    'position:fixed;visibility:hidden;pointer-events:none;padding:env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left)';
  document.body.append(probe);

  const render = () => {
    const viewport = window.visualViewport;
    out('viewport').textContent = `${window.innerWidth} × ${window.innerHeight}`;
    out('ratio').textContent = String(Math.round(window.devicePixelRatio * 100) / 100);
    const portrait = matchMedia('(orientation: portrait)').matches;
    out('orientation').textContent = portrait ? words.portrait! : words.landscape!;
    out('zoom').textContent = `×${(viewport?.scale ?? 1).toFixed(2)}`;
    out('touchPoints').textContent = String(navigator.maxTouchPoints);
    out('standalone').textContent = matchMedia('(display-mode: standalone)').matches ? words.yes! : words.no!;
    const style = getComputedStyle(probe);
    const insets = Object.fromEntries(
      SIDES.map((side) => [side, Math.round(Number.parseFloat(style.getPropertyValue(`padding-${side}`)) || 0)]),
    );
    out('safeArea').textContent = fill(root.dataset.safeArea ?? '', insets);
  };
  render();
  addEventListener('resize', render);
  window.visualViewport?.addEventListener('resize', render);
  matchMedia('(orientation: portrait)').addEventListener('change', render);

  const area = root.querySelector<HTMLElement>('[data-touch-area]')!;
  const readout = root.querySelector<HTMLElement>('[data-touch-readout]')!;
  const down = new Map<number, HTMLElement>();
  let most = 0;
  const show = () => {
    most = Math.max(most, down.size);
    readout.textContent = fill(readout.dataset.template ?? '', { count: down.size, max: most });
    readout.dataset.touches = String(down.size);
    readout.dataset.most = String(most);
  };
  const place = (event: PointerEvent) => {
    const dot = down.get(event.pointerId);
    if (!dot) return;
    const rect = area.getBoundingClientRect();
    dot.style.translate = `${event.clientX - rect.left}px ${event.clientY - rect.top}px`;
  };
  area.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch' && event.pointerType !== 'pen') return;
    const dot = document.createElement('span');
    dot.className = 'dev-touch-dot';
    area.append(dot);
    down.set(event.pointerId, dot);
    place(event);
    show();
  });
  area.addEventListener('pointermove', place);
  const lift = (event: PointerEvent) => {
    down.get(event.pointerId)?.remove();
    if (down.delete(event.pointerId)) show();
  };
  area.addEventListener('pointerup', lift);
  area.addEventListener('pointercancel', lift);
  show();
}

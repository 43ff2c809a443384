/**
 * The live parts of some /dev pages (SPEC §2): plain DOM, each wired only when its element is
 * on the page. Texts come from the page's data attributes (already in its language).
 */
import { onScroll, onWheel, type GesturePhase } from '../gestures/gestures.ts';
import { fill } from './dev-template.ts';

/** /dev/test-scroll: the scroll and wheel gestures of a box, phase by phase. */
function wireScroll(box: HTMLElement): void {
  const phases = JSON.parse(box.dataset.phases ?? '{}') as Record<GesturePhase, string>;
  const scrollOut = document.querySelector<HTMLElement>('[data-scroll-readout]');
  const wheelOut = document.querySelector<HTMLElement>('[data-wheel-readout]');
  onScroll(box, ({ phase, y }) => {
    if (scrollOut) {
      scrollOut.textContent = fill(scrollOut.dataset.template ?? '', { phase: phases[phase], y: Math.round(y) });
      scrollOut.dataset.phase = phase;
    }
  });
  let zoom = 1;
  onWheel(box, ({ phase, zoom: step, ctrlKey }) => {
    if (phase === 'change' && ctrlKey) zoom = Math.min(8, Math.max(0.125, zoom * step));
    if (wheelOut) {
      wheelOut.textContent = fill(wheelOut.dataset.template ?? '', { phase: phases[phase], zoom: zoom.toFixed(2) });
      wheelOut.dataset.phase = phase;
    }
  });
}

/** /dev/pointer-type: the last pointer's type and what the device's main pointer can do. */
function wirePointer(area: HTMLElement): void {
  const types = JSON.parse(area.dataset.types ?? '{}') as Record<string, string>;
  const [yes, no] = [area.dataset.yes ?? 'yes', area.dataset.no ?? 'no'];
  const last = document.querySelector<HTMLElement>('[data-pointer-last]');
  const hover = document.querySelector<HTMLElement>('[data-pointer-hover]');
  const fine = document.querySelector<HTMLElement>('[data-pointer-fine]');
  const facts = () => {
    if (hover)
      hover.textContent = fill(hover.dataset.template ?? '', {
        value: matchMedia('(hover: hover)').matches ? yes : no,
      });
    if (fine)
      fine.textContent = fill(fine.dataset.template ?? '', { value: matchMedia('(pointer: fine)').matches ? yes : no });
  };
  facts();
  matchMedia('(pointer: fine)').addEventListener('change', facts);
  area.addEventListener('pointerdown', (event) => {
    if (!last) return;
    last.textContent = fill(last.dataset.template ?? '', { type: types[event.pointerType] ?? event.pointerType });
    last.dataset.pointerLast = event.pointerType;
  });
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
function luminance([r, g, b]: number[]): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
/** The WCAG contrast ratio of two colours. */
export function contrastRatio(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** /dev/test-color: each theme colour as computed now, with its contrast against the page background. */
function wireColours(list: HTMLElement): void {
  const probe = document.createElement('span');
  document.body.append(probe);
  const rgb = (value: string) => {
    probe.style.color = value;
    return (getComputedStyle(probe).color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  };
  const render = () => {
    const background = rgb('var(--bg)');
    for (const item of list.querySelectorAll<HTMLElement>('[data-colour]')) {
      const colour = rgb(`var(${item.dataset.colour})`);
      const hex = `#${colour.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
      const out = item.querySelector<HTMLElement>('[data-colour-value]');
      if (out)
        out.textContent = `${hex} · ${fill(list.dataset.contrast ?? '', { ratio: contrastRatio(colour, background).toFixed(2) })}`;
      item.querySelector<HTMLElement>('.swatch')?.style.setProperty('background', hex);
    }
  };
  render();
  new MutationObserver(render).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ['data-theme', 'style', 'data-theme-color'],
  });
}

/** /dev/test-font: the font stack the page resolved, and how many web fonts it loaded (none: system fonts). */
function wireFonts(root: HTMLElement): void {
  const stack = root.querySelector<HTMLElement>('[data-font-stack]');
  if (stack) stack.textContent = getComputedStyle(document.body).fontFamily;
  const faces = root.querySelector<HTMLElement>('[data-font-faces]');
  void document.fonts.ready.then(() => {
    if (faces) faces.textContent = fill(faces.dataset.template ?? '', { count: document.fonts.size });
  });
}

/** /dev/components: the toast buttons show one toast of each severity, with its icon. */
function wireComponents(root: HTMLElement): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-toast]')) {
    button.addEventListener('click', async () => {
      const { showToast } = await import('../stores/toast.ts');
      showToast({
        message: root.dataset.toastMessage,
        severity: button.dataset.toast as 'success' | 'warning' | 'error' | 'info',
        icon: button.dataset.toastIcon,
      });
    });
  }
}

/** The pages with larger parts load them only when they are on the page. */
async function wireLarger(): Promise<void> {
  const sliders = document.querySelectorAll<HTMLElement>('[data-dev-slider]');
  if (sliders.length) {
    const { mountSlider } = await import('./slider.ts');
    const lang = document.documentElement.lang;
    for (const slider of sliders) {
      const scale = Number(slider.dataset.scale ?? 1);
      const format = slider.dataset.format;
      const number = new Intl.NumberFormat(lang, {
        style: format === 'percent' ? 'percent' : 'decimal',
        maximumFractionDigits: 2,
      });
      mountSlider(slider, (value) => `${format === 'times' ? '×' : ''}${number.format(value * scale)}`);
    }
  }
  const editor = document.querySelector<HTMLElement>('[data-rich-text]');
  if (editor) (await import('./rich-text.ts')).wireRichTextEditor(editor);
  const animations = document.querySelector<HTMLElement>('[data-animations]');
  if (animations) (await import('./dev-animations.ts')).wireAnimations(animations);
  const mobile = document.querySelector<HTMLElement>('[data-mobile-info]');
  if (mobile) (await import('./dev-mobile.ts')).wireMobile(mobile);
}

export function wireDevPage(): void {
  const fonts = document.querySelector<HTMLElement>('[data-fonts]');
  if (fonts) wireFonts(fonts);
  const components = document.querySelector<HTMLElement>('[data-components]');
  if (components) wireComponents(components);
  void wireLarger();
  const scroll = document.querySelector<HTMLElement>('[data-scroll-box]');
  if (scroll) wireScroll(scroll);
  const pointer = document.querySelector<HTMLElement>('[data-pointer-area]');
  if (pointer) wirePointer(pointer);
  const colours = document.querySelector<HTMLElement>('[data-colour-list]');
  if (colours) wireColours(colours);
}

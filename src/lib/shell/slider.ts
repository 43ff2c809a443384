/**
 * An accessible slider (WAI-ARIA slider pattern) for plain DOM: an element with role="slider"
 * holding a track, a fill and a thumb. Keyboard: arrows move one step (right and up increase),
 * Page Up/Down ten steps, Home/End to the ends; a mouse, pen or finger drags it (pointer capture),
 * and a press anywhere on the track jumps there. aria-valuenow/-valuetext follow the value; a
 * disabled slider (aria-disabled="true") takes no input. Used by /dev/test-slider.
 */
export interface SliderRange {
  min: number;
  max: number;
  step: number;
}

/** The value rounded to the slider's steps and kept within its ends. */
export function clampToStep(value: number, { min, max, step }: SliderRange): number {
  const stepped = min + Math.round((value - min) / step) * step;
  // Decimal steps (0.05) leave 0.30000000000000004 behind: round to the step's own precision.
  const decimals = (String(step).split('.')[1] ?? '').length;
  return Math.min(max, Math.max(min, Number(stepped.toFixed(decimals))));
}

/** The value a key moves the slider to, or null for a key the slider does not take. */
export function valueAfterKey(value: number, key: string, range: SliderRange): number | null {
  const page = range.step * 10;
  const moves: Record<string, number> = {
    ArrowRight: value + range.step,
    ArrowUp: value + range.step,
    ArrowLeft: value - range.step,
    ArrowDown: value - range.step,
    PageUp: value + page,
    PageDown: value - page,
    Home: range.min,
    End: range.max,
  };
  return key in moves ? clampToStep(moves[key]!, range) : null;
}

/** Wires one slider; `text` makes the value's spoken and shown text. Answers a setter. */
export function mountSlider(
  slider: HTMLElement,
  text: (value: number) => string,
  onChange?: (value: number) => void,
): (value: number) => void {
  const range: SliderRange = {
    min: Number(slider.getAttribute('aria-valuemin')),
    max: Number(slider.getAttribute('aria-valuemax')),
    step: Number(slider.dataset.step ?? 1),
  };
  const fill = slider.querySelector<HTMLElement>('[data-slider-fill]');
  const thumb = slider.querySelector<HTMLElement>('[data-slider-thumb]');
  const output = slider.id ? document.querySelector<HTMLOutputElement>(`output[for="${slider.id}"]`) : null;
  const disabled = () => slider.getAttribute('aria-disabled') === 'true';
  let value = Number(slider.getAttribute('aria-valuenow'));

  const set = (next: number) => {
    const changed = next !== value;
    value = clampToStep(next, range);
    const share = (value - range.min) / (range.max - range.min);
    slider.setAttribute('aria-valuenow', String(value));
    slider.setAttribute('aria-valuetext', text(value));
    slider.style.setProperty('--slider-share', String(share));
    if (fill) fill.style.inlineSize = `${share * 100}%`;
    if (thumb) thumb.style.insetInlineStart = `${share * 100}%`;
    if (output) output.textContent = text(value);
    if (changed) onChange?.(value);
  };
  const fromPointer = (clientX: number) => {
    const rect = slider.getBoundingClientRect();
    const share = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
    set(range.min + share * (range.max - range.min));
  };

  slider.addEventListener('keydown', (event) => {
    if (disabled()) return;
    const next = valueAfterKey(value, event.key, range);
    if (next === null) return;
    event.preventDefault();
    set(next);
  });
  slider.addEventListener('pointerdown', (event) => {
    if (disabled() || event.button !== 0) return;
    slider.setPointerCapture(event.pointerId);
    slider.focus();
    slider.dataset.dragging = '';
    fromPointer(event.clientX);
  });
  slider.addEventListener('pointermove', (event) => {
    if (slider.hasPointerCapture(event.pointerId)) fromPointer(event.clientX);
  });
  const release = () => delete slider.dataset.dragging;
  slider.addEventListener('pointerup', release);
  slider.addEventListener('pointercancel', release);
  set(value);
  return set;
}

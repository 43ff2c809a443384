import { useEffect, useRef, type RefObject } from 'react';

/**
 * The one closing behaviour of every popover and menu: while `open`, Esc (wherever the focus
 * is) and a press outside `box` close it. Esc hands the focus back to `returnFocus` (the
 * button that opened it) when the focus was inside the popover or lost (a control inside that
 * went disabled drops it), so keyboard users stay in place.
 */
export function useDismiss(
  open: boolean,
  box: RefObject<HTMLElement | null>,
  onClose: () => void,
  returnFocus?: RefObject<HTMLElement | null>,
): void {
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) close.current();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      // Handled here: the player's own Esc (leave full screen...) waits for the next press.
      e.preventDefault();
      e.stopPropagation();
      const inside = box.current?.contains(document.activeElement) || document.activeElement === document.body;
      close.current();
      if (inside) returnFocus?.current?.focus();
    };
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open, box, returnFocus]);
}

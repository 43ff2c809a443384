import { atom, onMount } from 'nanostores';
import { BREAKPOINTS, breakpointFor, type Breakpoint } from '../navigation/routes.ts';

/** The current breakpoint; 'computer' on the server and until mounted, so hydration matches. */
export const $breakpoint = atom<Breakpoint>('computer');

onMount($breakpoint, () => {
  const mobile = matchMedia(`(max-width: ${BREAKPOINTS.mobileMax}px)`);
  const tablet = matchMedia(`(max-width: ${BREAKPOINTS.tabletMax}px)`);
  const update = () => $breakpoint.set(breakpointFor(window.innerWidth));
  update();
  mobile.addEventListener('change', update);
  tablet.addEventListener('change', update);
  return () => {
    mobile.removeEventListener('change', update);
    tablet.removeEventListener('change', update);
  };
});

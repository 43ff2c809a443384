/** Statistics the benches share (Node and the render bench's browser page alike). */

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The two sides of a side-by-side bench in round `round`: first then second, swapped every other round (ABBA), so neither always runs on a warmer machine. */
export function abbaOrder<T>(round: number, first: T, second: T): [T, T] {
  return round % 2 ? [second, first] : [first, second];
}

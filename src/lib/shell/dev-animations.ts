/**
 * /dev/test-lottie: the site uses no Lottie library, so this page shows its own animations
 * instead: each tile replays the site's @keyframes (read from the page's style sheets, so they
 * are the very rules the site runs) with the Web Animations API, one after another when a tile
 * names several. Reduced motion (the system's or the site's choice) plays them instantly.
 */
function keyframesNamed(name: string): Keyframe[] {
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue;
    }
    for (const rule of Array.from(rules)) {
      if (!(rule instanceof CSSKeyframesRule) || rule.name !== name) continue;
      return Array.from(rule.cssRules as CSSRuleList, (frame) => {
        const { keyText, style } = frame as CSSKeyframeRule;
        const keyframe: Keyframe = {
          offset: keyText === 'from' ? 0 : keyText === 'to' ? 1 : Number.parseFloat(keyText) / 100,
        };
        for (let i = 0; i < style.length; i++) {
          const property = style.item(i);
          keyframe[property.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = style.getPropertyValue(property);
        }
        return keyframe;
      }).sort((a, b) => (a.offset as number) - (b.offset as number));
    }
  }
  return [];
}

const reducedMotion = () =>
  matchMedia('(prefers-reduced-motion: reduce)').matches ||
  document.documentElement.hasAttribute('data-reduced-motion');

async function play(tile: HTMLElement): Promise<void> {
  const target = tile.querySelector<HTMLElement>('[data-animated]')!;
  const names = (tile.dataset.keyframes ?? '').split(' ').filter(Boolean);
  const duration = reducedMotion() ? 0 : Number(tile.dataset.duration ?? 500);
  const iterations = tile.dataset.iterations === 'infinite' && !reducedMotion() ? Infinity : 1;
  for (const animation of target.getAnimations()) animation.cancel();
  tile.dataset.state = 'running';
  for (const name of names) {
    const animation = target.animate(keyframesNamed(name), {
      duration,
      iterations,
      easing: tile.dataset.easing ?? 'ease',
      fill: 'both',
    });
    if (iterations === Infinity) return;
    try {
      await animation.finished;
    } catch {
      return;
    } // cancelled by a replay
  }
  // Back to the element's own look (a sequence may end hidden, as a toast that has left).
  for (const animation of target.getAnimations()) animation.cancel();
  tile.dataset.state = 'finished';
}

export function wireAnimations(root: HTMLElement): void {
  const tiles = Array.from(root.querySelectorAll<HTMLElement>('[data-animation]'));
  for (const tile of tiles) tile.querySelector('[data-replay]')?.addEventListener('click', () => void play(tile));
  root.querySelector('[data-replay-all]')?.addEventListener('click', () => tiles.forEach((tile) => void play(tile)));
  const note = root.querySelector<HTMLElement>('[data-reduced-note]');
  if (note) note.hidden = !reducedMotion();
  // Only the looping star starts by itself; the others play when asked (text fading in and out
  // as the page opens would only distract).
  tiles.filter((tile) => tile.dataset.iterations === 'infinite').forEach((tile) => void play(tile));
}

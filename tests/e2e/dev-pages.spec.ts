/**
 * The live /dev pages (SPEC §2): scroll and wheel gestures phase by phase, the pointer type, the
 * theme colours with their contrast, the fonts, the components gallery, the animations (the
 * site's own keyframes in place of Lottie), the slider by keyboard and pointer, the rich-text
 * editor and its sanitised output, and the mobile facts with a touch test.
 */
import { expect, test } from '@playwright/test';
import { msg, shoot, waitForShell } from './helpers.ts';
import { ICONS } from '../../src/lib/icons.ts';

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k]);

test('test-scroll reports scroll and wheel gestures from start to end', async ({ page }) => {
  await page.goto('/en/dev/test-scroll');
  await waitForShell(page);
  const box = page.locator('[data-scroll-box]');
  await box.evaluate((el) => el.scrollTo(0, 120));
  const scroll = page.locator('[data-scroll-readout]');
  await expect(scroll).toHaveAttribute('data-phase', 'end');
  await expect(scroll).toHaveText(
    fill(msg('en', 'dev.scroll.readout'), { phase: msg('en', 'dev.phases.end'), y: '120' }),
  );
  await box.hover();
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  const wheel = page.locator('[data-wheel-readout]');
  await expect(wheel).toHaveAttribute('data-phase', 'end');
  await expect(wheel).toHaveText(
    fill(msg('en', 'dev.scroll.wheel'), { phase: msg('en', 'dev.phases.end'), zoom: (2 ** 0.7).toFixed(2) }),
  );
});

test('pointer-type names the pointer used; test-color lists the theme colours with readable text', async ({ page }) => {
  await page.goto('/en/dev/pointer-type');
  await waitForShell(page);
  await page.locator('[data-pointer-area]').click();
  await expect(page.locator('[data-pointer-last]')).toHaveText(
    fill(msg('en', 'dev.pointer.last'), { type: msg('en', 'dev.pointer.types.mouse') }),
  );
  await expect(page.locator('[data-pointer-fine]')).toHaveText(
    fill(msg('en', 'dev.pointer.fine'), { value: msg('en', 'dev.yes') }),
  );

  await page.goto('/en/dev/test-color');
  await waitForShell(page);
  const text = page.locator('[data-colour="--text"] [data-colour-value]');
  await expect(text).toHaveText(/^#[0-9a-f]{6} · contrast \d+\.\d\d:1$/);
  const ratio = Number(/contrast ([\d.]+):1/.exec((await text.textContent())!)![1]);
  expect(ratio).toBeGreaterThanOrEqual(4.5);
});

test('test-font shows the resolved font stack and samples in every script the site is written in', async ({ page }) => {
  await page.goto('/en/dev/test-font');
  await waitForShell(page);
  await expect(page.locator('[data-font-stack]')).toContainText('system-ui');
  await expect(page.locator('[data-font-faces]')).toHaveText(fill(msg('en', 'dev.font.faces'), { count: '0' }));
  for (const lang of ['zh-Hans', 'zh-Hant', 'yue-Hant-HK', 'ja', 'ko', 'en', 'fr', 'vi', 'id'])
    await expect(page.locator(`dd[lang="${lang}"]`)).toHaveCount(1);
  await shoot(page, 'dev-test-font');
});

test('components shows the shared parts; its toast buttons raise toasts of each severity', async ({ page }) => {
  await page.goto('/en/dev/components');
  await waitForShell(page);
  await expect(page.locator('.video-card')).toHaveCount(2);
  await expect(page.locator('.video-card .video-status')).toHaveText(msg('en', 'catalogue.card.pending'));
  await expect(page.locator('.audio-card')).toHaveCount(1);
  await expect(page.locator('.pager [aria-current="page"]')).toHaveText('3');
  await page.getByRole('button', { name: msg('en', 'dev.components.toast.warning') }).click();
  await expect(page.locator('.toast.toast-warning')).toContainText(msg('en', 'dev.components.toastMessage'));
  // The toast's icon (SPEC §3) is drawn before its message, in the severity's colour.
  await expect(page.locator('.toast.toast-warning svg.toast-icon path')).toHaveAttribute('d', ICONS.warning);
  await shoot(page, 'dev-components');
});

test('test-lottie replays the site’s own keyframes with the Web Animations API', async ({ page }) => {
  await page.goto('/en/dev/test-lottie');
  await waitForShell(page);
  const toast = page.locator('[data-animation="toast"]');
  await expect(toast).not.toHaveAttribute('data-state');
  // Every animation the page starts is noted as it starts: a busy machine may have finished the
  // first one before the test could look at the element.
  await page.evaluate(() => {
    const started: Keyframe[][] = [];
    (window as unknown as { started: Keyframe[][] }).started = started;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, ...args: Parameters<Element['animate']>) {
      const animation = animate.apply(this, args);
      if (this.closest('[data-animation="toast"]')) started.push((animation.effect as KeyframeEffect).getKeyframes());
      return animation;
    };
  });
  await toast
    .getByRole('button', {
      name: fill(msg('en', 'dev.animation.replayOne'), { name: msg('en', 'dev.animation.toast') }),
    })
    .click();
  // The keyframes played are global.css's toast-in (from opacity 0, up 16 px, to the element's own style), read from the style sheet, then its toast-out.
  await expect(toast).toHaveAttribute('data-state', 'finished');
  const started = await page.evaluate(() => (window as unknown as { started: Keyframe[][] }).started);
  expect(started).toHaveLength(2);
  expect(started[0]).toMatchObject([{ offset: 0, opacity: '0', transform: 'translateY(-16px) scale(0.96)' }]);
  // Back to its own look once played (toast-out leaves it transparent).
  await expect(toast.locator('[data-animated]')).toHaveCSS('opacity', '1');
  expect(await toast.locator('[data-animated]').evaluate((el) => el.getAnimations().length)).toBe(0);
  // Replay all plays every tile.
  await page.getByRole('button', { name: msg('en', 'dev.animation.replayAll') }).click();
  await expect(page.locator('[data-animation][data-state="finished"]')).toHaveCount(4, { timeout: 10_000 });
  // The star twinkles for ever.
  expect(
    await page
      .locator('[data-animation="twinkle"] [data-animated]')
      .evaluate((el) => el.getAnimations()[0]?.effect?.getTiming().iterations),
  ).toBe(Infinity);
  await expect(page.locator('[data-reduced-note]')).toBeHidden();
  await shoot(page, 'dev-test-lottie');
});

test('test-slider moves by keys and pointer, announces its value, and a disabled slider stays put', async ({
  page,
}) => {
  await page.goto('/en/dev/test-slider');
  await waitForShell(page);
  const volume = page.getByRole('slider', { name: msg('en', 'dev.slider.volume') });
  await expect(volume).toHaveAttribute('aria-valuetext', '60%');
  await volume.focus();
  for (const [key, value] of [
    ['ArrowRight', 61],
    ['ArrowUp', 62],
    ['ArrowLeft', 61],
    ['PageUp', 71],
    ['PageDown', 61],
    ['End', 100],
    ['ArrowRight', 100],
    ['Home', 0],
  ] as const) {
    await page.keyboard.press(key);
    await expect(volume, key).toHaveAttribute('aria-valuenow', String(value));
  }
  await expect(page.locator('output[for="slider-volume"]')).toHaveText('0%');

  const opacity = page.getByRole('slider', { name: msg('en', 'dev.slider.opacity') });
  await opacity.focus();
  await page.keyboard.press('ArrowUp');
  await expect(opacity).toHaveAttribute('aria-valuenow', '0.25');
  await expect(opacity).toHaveAttribute('aria-valuetext', '25%');

  // A press on the middle of the track jumps there (0.5..2 in steps of 0.25), a drag follows the pointer.
  const speed = page.getByRole('slider', { name: msg('en', 'dev.slider.speed') });
  const box = (await speed.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(speed).toHaveAttribute('aria-valuenow', '1.25');
  await expect(speed).toHaveAttribute('aria-valuetext', '×1.25');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + 40, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(speed).toHaveAttribute('aria-valuenow', '2');

  const disabled = page.getByRole('slider', { name: msg('en', 'dev.slider.disabled') });
  await disabled.focus();
  await page.keyboard.press('End');
  await expect(disabled).toHaveAttribute('aria-valuenow', '4');
  await shoot(page, 'dev-test-slider');
});

test('test-rich-text-editor formats text, adds only safe links, and sanitises what is pasted', async ({ page }) => {
  await page.goto('/en/dev/test-rich-text-editor');
  await waitForShell(page);
  const root = page.locator('[data-rich-text][data-ready]');
  const editor = page.getByRole('textbox', { name: msg('en', 'dev.editor.label') });
  const html = page.locator('[data-editor-html]');
  await expect(root).toHaveCount(1);
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Hello stars');
  await page.keyboard.press('Shift+Home');
  const bold = page.getByRole('button', { name: msg('en', 'dev.editor.bold') });
  await bold.click();
  await expect(html).toHaveText('<p><strong>Hello stars</strong></p>');
  await expect(bold).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ControlOrMeta+I');
  await expect(html).toHaveText(
    /^<p>(<strong><em>Hello stars<\/em><\/strong>|<em><strong>Hello stars<\/strong><\/em>)<\/p>$/,
  );

  // A link: a javascript: address is refused with a message, an https one is kept.
  await page.getByRole('button', { name: msg('en', 'dev.editor.link'), exact: true }).click();
  const address = page.getByLabel(msg('en', 'dev.editor.linkUrl'));
  await address.fill('javascript:alert(1)');
  await page
    .locator('[data-link-form]')
    .getByRole('button', { name: msg('en', 'dev.editor.addLink') })
    .click();
  await expect(page.locator('[data-link-error]')).toHaveText(msg('en', 'dev.editor.badUrl'));
  await address.fill('https://example.com/stars');
  await page
    .locator('[data-link-form]')
    .getByRole('button', { name: msg('en', 'dev.editor.addLink') })
    .click();
  await expect(html).toContainText('<a href="https://example.com/stars" rel="noopener noreferrer nofollow">');
  await expect(page.locator('[data-editor-preview] a')).toHaveAttribute('href', 'https://example.com/stars');

  // A list.
  await editor.press('End');
  await page.getByRole('button', { name: msg('en', 'dev.editor.bulletList') }).click();
  await expect(html).toContainText('<ul><li>');

  // Pasted HTML: scripts, handlers and javascript: links never reach the page.
  await editor.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await editor.evaluate((el) => {
    const data = new DataTransfer();
    data.setData(
      'text/html',
      '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><a href="javascript:window.pwned=3">click</a> <b onclick="window.pwned=4" style="color:red">ok</b><iframe src="https://example.com"></iframe>',
    );
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(page.locator('[data-editor-preview]')).toContainText('click ok');
  const output = (await html.textContent())!;
  expect(output).not.toMatch(/script|onerror|onclick|javascript|iframe|<img|style=/);
  expect(output).toContain('<strong>ok</strong>');
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  await shoot(page, 'dev-test-rich-text-editor');
});

test('test-mobile tells the phone’s layout, viewport and touch points, and counts fingers', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 375, height: 740 },
    hasTouch: true,
    isMobile: true,
    deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  await page.goto('/en/dev/test-mobile');
  await waitForShell(page);
  await expect(page.locator('#breakpoint-readout')).toHaveText(
    fill(msg('en', 'dev.breakpoint'), { breakpoint: msg('en', 'dev.breakpoints.mobile') }),
  );
  await expect(page.locator('[data-mobile="viewport"]')).toHaveText(/^375 × \d+$/);
  await expect(page.locator('[data-mobile="ratio"]')).toHaveText('2');
  await expect(page.locator('[data-mobile="orientation"]')).toHaveText(msg('en', 'dev.mobile.portrait'));
  await expect(page.locator('[data-mobile="standalone"]')).toHaveText(msg('en', 'dev.no'));
  await expect(page.locator('[data-mobile="safeArea"]')).toHaveText(
    fill(msg('en', 'dev.mobile.safeAreaValue'), { top: '0', right: '0', bottom: '0', left: '0' }),
  );
  expect(Number(await page.locator('[data-mobile="touchPoints"]').textContent())).toBeGreaterThan(0);
  const area = page.locator('[data-touch-area]');
  await area.scrollIntoViewIfNeeded();
  await area.tap();
  await expect(page.locator('[data-touch-readout]')).toHaveText(
    fill(msg('en', 'dev.mobile.touches'), { count: '0', max: '1' }),
  );
  await shoot(page, 'dev-test-mobile');
  await context.close();
});

/**
 * Shared helpers of the browser tests: the message catalogs (read from src/i18n as the oracle,
 * never through the product's own translation code), the locale table as the spec states it,
 * and small page utilities.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, type Response } from '@playwright/test';

export const LOCALE_CODES = ['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue', 'ii'] as const;
export type LocaleCode = (typeof LOCALE_CODES)[number];

/** The `<html lang>` each locale must carry (SPEC §2). */
export const HTML_LANG: Record<LocaleCode, string> = {
  zhs: 'zh-Hans-CN',
  zht: 'zh-Hant-TW',
  en: 'en-US',
  ja: 'ja-JP',
  ko: 'ko-KR',
  vi: 'vi-VN',
  id: 'id-ID',
  fr: 'fr-FR',
  yue: 'zh-Hant-HK',
  ii: 'ii',
};

/** '/', '/en/', ... : the home of a locale (the default one has no prefix). */
export function homePath(locale: LocaleCode): string {
  return locale === 'zhs' ? '/' : `/${locale}/`;
}

/** A route under a locale's prefix: ('/search', 'en') -> '/en/search'. */
export function localized(route: string, locale: LocaleCode): string {
  return locale === 'zhs' ? route : `/${locale}${route}`;
}

const I18N_DIR = join(process.cwd(), 'src', 'i18n');
const catalogCache = new Map<string, Record<string, unknown>>();

function catalog(locale: Exclude<LocaleCode, 'ii'>): Record<string, unknown> {
  let messages = catalogCache.get(locale);
  if (!messages) {
    messages = JSON.parse(readFileSync(join(I18N_DIR, `${locale}.json`), 'utf8')) as Record<string, unknown>;
    catalogCache.set(locale, messages);
  }
  return messages;
}

/** A catalog value by dotted key; the in-context mode (ii) shows the key itself as ⟦key⟧. */
export function msg(locale: LocaleCode, key: string): string {
  if (locale === 'ii') return `⟦${key}⟧`;
  let node: unknown = catalog(locale);
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`catalog ${locale} has no message ${key}`);
  return node;
}

/** The pathname of the page's current URL. */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Every response of a navigation, first (the one asked for) to last (the one shown). */
export async function responseChain(final: Response | null): Promise<Array<{ path: string; status: number }>> {
  const chain: Array<{ path: string; status: number }> = [];
  let request = final?.request() ?? null;
  while (request) {
    const response = await request.response();
    chain.unshift({ path: new URL(request.url()).pathname, status: response?.status() ?? 0 });
    request = request.redirectedFrom();
  }
  return chain;
}

/** Waits until every Astro island on the page has hydrated (Astro drops the `ssr` attribute then). */
export async function waitForIslands(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 10_000 });
}

/** Waits until the shell script ran (it sets the breakpoint attribute and window.kirara). */
export async function waitForShell(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-breakpoint', /^(mobile|tablet|computer)$/);
  await page.waitForFunction(() => 'kirara' in window);
}

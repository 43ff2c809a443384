/**
 * Finding videos as a visitor does: the newest on the home page (approved only, newest first,
 * paged), categories, search by a Chinese, Japanese or English word and by tag, a member's videos
 * tab (the uploader sees their pending one marked) and the sitemap. Real clips through the pipeline.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { msg, publishVideoByApi, signUpByApi, waitForIslands, E2E_BASE_URL, type PublishedVideo } from './helpers.ts';
import { cardLoading } from '../../src/lib/catalogue/poster.ts';

let uploader: { uid: number };
let uploaderPage: Page;
let tagId: number;
let chinese: PublishedVideo;
let japanese: PublishedVideo;
let english: PublishedVideo;
let pending: PublishedVideo;

const cardTitles = (page: Page) => page.locator('#main .video-card .video-title').allTextContents();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }: { browser: Browser }, testInfo) => {
  testInfo.setTimeout(90_000);
  uploaderPage = await (await browser.newContext()).newPage();
  uploader = await signUpByApi(uploaderPage, 'Hoshimi');
  const tag = await uploaderPage.request.post(`${E2E_BASE_URL}/api/video/tag/create`, {
    data: {
      tagNameList: [
        { lang: 'zhs', tagName: [{ name: '星空观测', isDefault: true, isOriginalTagName: true }] },
        { lang: 'en', tagName: [{ name: 'Stargazing', isDefault: true }] },
      ],
    },
  });
  expect(tag.ok(), await tag.text()).toBe(true);
  tagId = (await tag.json()).tagId;
  // Published one after another, so the newest is the English one.
  chinese = await publishVideoByApi(uploaderPage, {
    title: '星空下的演唱会',
    videoCategory: 'music',
    videoTagList: [tagId],
    seconds: 4,
  });
  japanese = await publishVideoByApi(uploaderPage, { title: '夏祭りの思い出', videoCategory: 'anime', seconds: 4 });
  english = await publishVideoByApi(uploaderPage, { title: 'Pixel Art Speedrun', videoCategory: 'design', seconds: 4 });
  pending = await publishVideoByApi(uploaderPage, {
    title: '秘密の下書き',
    videoCategory: 'anime',
    seconds: 4,
    approve: false,
  });
});

test('the home page shows approved videos newest first, never pending ones, with working cards', async ({ page }) => {
  await page.goto('/en/');
  await expect(page.locator('#main h1')).toHaveText(msg('en', 'catalogue.home.latest'));
  const titles = await cardTitles(page);
  const mine = titles.filter((t) => [chinese, japanese, english].some((v) => v.title === t));
  expect(mine).toEqual([english.title, japanese.title, chinese.title]);
  expect(titles).not.toContain(pending.title);
  expect(await page.locator('.home-hero').count()).toBe(0);

  const card = page.locator(`.video-card[data-video-id="${chinese.videoId}"]`);
  await expect(card.locator('.video-badge')).toHaveText('0:04');
  await expect(card.locator('.video-uploader')).toHaveText('Hoshimi');
  await expect(card.locator('.video-uploader')).toHaveAttribute('href', `/en/user/${uploader.uid}`);
  await expect(card.locator('.video-title')).toHaveAttribute('href', `/en/video/kv${chinese.videoId}`);
  // The first row loads at once, its first two (a phone's screen, the largest paint) with high
  // priority; the rest lazily.
  const covers = page.locator('#main .video-card img');
  const count = await covers.count();
  expect(count).toBeGreaterThan(2);
  for (let i = 0; i < count; i++) {
    const loading = cardLoading(i);
    await expect(covers.nth(i)).toHaveAttribute('loading', loading === 'lazy' ? 'lazy' : 'eager');
    if (loading === 'high') await expect(covers.nth(i)).toHaveAttribute('fetchpriority', 'high');
    else await expect(covers.nth(i)).not.toHaveAttribute('fetchpriority', 'high');
  }
  await expect(card.locator('picture source[type="image/avif"]')).toHaveAttribute(
    'srcset',
    /-320\.avif 320w, .*-640\.avif 640w, .*-1280\.avif 1280w$/,
  );
  // In Japanese the same card links to the Japanese video page.
  await page.goto('/ja/');
  await expect(page.locator(`.video-card[data-video-id="${chinese.videoId}"] .video-title`)).toHaveAttribute(
    'href',
    `/ja/video/kv${chinese.videoId}`,
  );
});

test('the home page pages through the videos with links in the address', async ({ page }) => {
  await page.goto('/en/?pageSize=1');
  await expect(page.locator('#main .video-card')).toHaveCount(1);
  const first = await cardTitles(page);
  await page.locator('.pager [data-pager-next]').click();
  await expect(page).toHaveURL(/\/en\/\?pageSize=1&page=2$/);
  await expect(page.locator('#main .video-card')).toHaveCount(1);
  expect(await cardTitles(page)).not.toEqual(first);
  await expect(page.locator('.pager [aria-current="page"]')).toHaveText('2');
});

test('categories show their own videos under localized chips', async ({ page }) => {
  await page.goto('/ja/category');
  // Nothing chosen yet: the first category is shown, with its chip marked.
  await expect(page.locator('.chip[aria-current="page"]')).toHaveText(msg('ja', 'video.categories.anime'));
  await expect(page.locator('[data-list="category"]')).toBeVisible();
  await page.locator('.chip[data-category="music"]').click();
  await expect(page).toHaveURL(/\/ja\/category\?category=music$/);
  await expect(page.locator('.chip[aria-current="page"]')).toHaveText(msg('ja', 'video.categories.music'));
  const music = await cardTitles(page);
  expect(music).toContain(chinese.title);
  expect(music).not.toContain(japanese.title);
  await page.goto('/en/category?category=anime');
  const anime = await cardTitles(page);
  expect(anime).toContain(japanese.title);
  expect(anime).not.toContain(pending.title);
  expect(anime).not.toContain(chinese.title);
});

test('search finds videos by one- and two-character Chinese words, Japanese and English words', async ({ page }) => {
  const search = async (keyword: string) => {
    await page.goto(`/en/search?keyword=${encodeURIComponent(keyword)}`);
    await expect(page.locator('[data-list="search"]')).toBeVisible();
    return cardTitles(page);
  };
  expect(await search('星')).toContain(chinese.title);
  expect(await search('演唱')).toEqual([chinese.title]);
  expect(await search('祭り')).toEqual([japanese.title]);
  expect(await search('pixel')).toEqual([english.title]);
  await expect(page.locator('[data-results-count]')).toHaveText(msg('en', 'catalogue.count').replace('{{count}}', '1'));
  expect(await search('下書き')).toEqual([]);
  await expect(page.locator('[data-state="empty"]')).toHaveText(msg('en', 'catalogue.search.empty'));

  // The first results come with the page: the cards and their posters are in the HTML (the first
  // row at once, with high priority), and the island asks the API nothing on load.
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/') && /search/.test(request.url())) asked.push(request.url());
  });
  const html = await (await page.goto(`/en/search?keyword=${encodeURIComponent('星')}`))!.text();
  expect(html).toContain(`title="${chinese.title}">${chinese.title}</a>`);
  await waitForIslands(page);
  const cover = page.locator(`.video-card[data-video-id="${chinese.videoId}"] img`);
  await expect(cover).toHaveAttribute('fetchpriority', 'high');
  await expect(cover).toHaveAttribute('loading', 'eager');
  await expect(
    page.locator(`.video-card[data-video-id="${chinese.videoId}"] picture source[type="image/avif"]`),
  ).toHaveAttribute('srcset', /-320\.avif 320w/);
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);

  // The page's own keyword box puts the query in the address.
  await page.goto('/en/search');
  await waitForIslands(page);
  await expect(page.locator('[data-state="prompt"]')).toBeVisible();
  await page.locator('[data-search-keyword]').fill('夏祭り');
  await page.locator('[data-search-keyword]').press('Enter');
  await expect(page).toHaveURL(/\/en\/search\?keyword=%E5%A4%8F/);
  await expect.poll(() => cardTitles(page)).toEqual([japanese.title]);
});

test('search by tag: suggestions in the viewer’s language, the chosen tag in the address', async ({ page }) => {
  await page.goto('/en/search');
  await waitForIslands(page);
  await page.locator('[data-tag-input]').fill('Star');
  await expect(page.locator(`[data-tag-id="${tagId}"]`)).toHaveText('# Stargazing');
  await page.locator(`[data-tag-id="${tagId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/en/search\\?tag=${tagId}$`));
  await expect.poll(() => cardTitles(page)).toEqual([chinese.title]);
  await expect(page.locator('[data-chosen-tags] .chip')).toContainText('Stargazing');
  // In Chinese the same tag is named in Chinese (the name falls back per language).
  await page.goto(`/search?tag=${tagId}`);
  await expect(page.locator('[data-chosen-tags] .chip')).toContainText('星空观测');
  await page.locator('[data-tag-input]').fill('nothing-like-this');
  await expect(page.locator('[data-state="no-tags"]')).toBeVisible();
});

test('a member’s videos tab: everyone sees the approved ones, the uploader also the pending one, marked', async ({
  page,
}) => {
  await page.goto(`/en/user/${uploader.uid}/videos`);
  const seen = await cardTitles(page);
  expect(seen.sort()).toEqual([chinese.title, japanese.title, english.title].sort());

  await uploaderPage.goto(`/en/user/${uploader.uid}/videos?pageSize=3`);
  await expect(uploaderPage.locator('#main .video-card')).toHaveCount(3);
  await expect(uploaderPage.locator('.list-count')).toHaveText(msg('en', 'catalogue.count').replace('{{count}}', '4'));
  // The pending video is the newest, so it leads page one.
  await expect(uploaderPage.locator(`.video-card[data-video-id="${pending.videoId}"] .video-status`)).toHaveText(
    msg('en', 'catalogue.card.pending'),
  );
  await uploaderPage.locator('.pager [data-pager-next]').click();
  await expect(uploaderPage.locator('#main .video-card')).toHaveCount(1);
  expect(await cardTitles(uploaderPage)).toEqual([chinese.title]);
});

test('the sitemap index leads to every approved video, rendered without a rebuild', async ({ request }) => {
  const index = await (await request.get('/sitemap.xml')).text();
  const files = [...index.matchAll(/<loc>[^<]*(\/sitemap-videos-\d+\.xml)<\/loc>/g)].map((m) => m[1]);
  expect(files.length).toBeGreaterThan(0);
  const videos = (await Promise.all(files.map(async (file) => (await request.get(file)).text()))).join('');
  expect(videos).toContain(`/en/video/kv${english.videoId}</loc><lastmod>`);
  expect(videos).not.toContain(`/video/kv${pending.videoId}<`);
});

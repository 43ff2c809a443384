/**
 * The comment section of a video page as members, the administrator and guests use it: a
 * formatted comment with its floor, votes that switch, deletion by the author and by the
 * administrator, guests asked to log in, and markup in a comment that never runs.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  E2E_BASE_URL,
  adminRequest,
  logInAsAdmin,
  msg,
  publishVideoByApi,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

test.describe.configure({ mode: 'serial', timeout: 60_000 });

let videoId = 0;
/** The uploader, kept logged in: the member who posts the comments the later tests look at. */
let poster: Page;
const videoPath = () => `/en/video/kv${videoId}`;

/** A new browser context with a member signed up in it. */
async function memberPage(browser: Browser, nickname: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signUpByApi(page, nickname);
  return page;
}

async function openComments(page: Page) {
  await page.goto(videoPath());
  // The island hydrates when it comes into view.
  await page.locator('astro-island:has([data-comments])').scrollIntoViewIfNeeded();
  await waitForIslands(page);
  const section = page.locator('[data-comments]');
  await expect(section.locator('.comment-list, [data-comments-empty]').first()).toBeVisible();
  return section;
}

const postByApi = (page: Page, text: string) =>
  page.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, { data: { videoId, text } });

test.beforeAll(async ({ browser }) => {
  poster = await memberPage(browser, 'Uploader');
  ({ videoId } = await publishVideoByApi(poster, { title: 'A video to talk about' }));
});
test.afterAll(() => poster.context().close());

test('a member writes a bold comment, another votes and switches, the author deletes it', async ({ browser }) => {
  const author = await memberPage(browser, 'Author');
  const section = await openComments(author);
  await expect(section.locator('[data-comments-empty]')).toHaveText(msg('en', 'comments.empty'));

  const input = section.getByRole('textbox');
  const bold = section.locator('[data-format=bold]');
  await input.click();
  await bold.click();
  await expect(bold).toHaveAttribute('aria-pressed', 'true');
  await author.keyboard.type('Loud part');
  await bold.click();
  await expect(bold).toHaveAttribute('aria-pressed', 'false');
  await author.keyboard.type(' and quiet part');
  await author.keyboard.press('Control+Enter');
  await expect(author.locator('.toast', { hasText: msg('en', 'comments.sent') })).toBeVisible();

  const comment = section.locator('[data-comment]').first();
  await expect(comment.locator('[data-comment-text] b')).toHaveText('Loud part');
  await expect(comment.locator('[data-comment-text]')).toHaveText('Loud part and quiet part');
  await expect(comment.locator('[data-comment-floor]')).toHaveText(
    msg('en', 'comments.floor').replace('{{floor}}', '1'),
  );
  await expect(section.locator('[data-comment-count]')).toHaveText('1');
  await expect(input).toHaveText('');

  const voter = await memberPage(browser, 'Voter');
  const theirView = (await openComments(voter)).locator('[data-comment]').first();
  const up = theirView.locator('[data-upvote]');
  const down = theirView.locator('[data-downvote]');
  await expect(theirView.locator('[data-comment-delete]')).toHaveCount(0);
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await expect(up.locator('[data-count]')).toHaveText('1');
  await down.click();
  await expect(down).toHaveAttribute('aria-pressed', 'true');
  await expect(up).toHaveAttribute('aria-pressed', 'false');
  await expect(up.locator('[data-count]')).toHaveText('0');
  await expect(down.locator('[data-count]')).toHaveText('1');
  // The vote is the server's: it is still there after a reload.
  await expect((await openComments(voter)).locator('[data-comment] [data-downvote]').first()).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  const remove = comment.locator('[data-comment-delete=self]');
  await remove.click();
  await expect(remove).toHaveText(msg('en', 'comments.confirmDelete'));
  await remove.click();
  await expect(author.locator('.toast', { hasText: msg('en', 'comments.deleted') })).toBeVisible();
  await expect(section.locator('[data-comments-empty]')).toBeVisible();
  await Promise.all([author.context().close(), voter.context().close()]);
});

test('the administrator deletes a member’s comment', async ({ page }) => {
  expect((await postByApi(poster, 'Something to moderate')).ok()).toBe(true);
  await logInAsAdmin(page);
  const section = await openComments(page);
  const comment = section.locator('[data-comment]', { hasText: 'Something to moderate' });
  const remove = comment.locator('[data-comment-delete=admin]');
  await expect(remove).toHaveText(msg('en', 'comments.adminDelete'));
  await remove.click();
  await remove.click();
  await expect(page.locator('.toast', { hasText: msg('en', 'comments.deleted') })).toBeVisible();
  await expect(comment).toHaveCount(0);
});

test('a guest is asked to log in to comment or vote', async ({ page }) => {
  expect((await postByApi(poster, 'Hello guests')).ok()).toBe(true);
  const section = await openComments(page);
  await expect(section.getByRole('textbox')).toHaveCount(0);
  await expect(section.locator('[data-comments-guest]')).toContainText(msg('en', 'comments.loginToComment'));
  await section.locator('[data-comment]', { hasText: 'Hello guests' }).locator('[data-upvote]').click();
  await expect(page.locator('dialog.auth-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('dialog.auth-dialog')).toHaveCount(0);
  await section.locator('[data-comments-guest] button').click();
  await expect(page.locator('dialog.auth-dialog')).toBeVisible();
});

test('markup in a comment never runs', async ({ page }) => {
  const hostile =
    '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b onclick="window.__pwned=3" style="color:red">still here</b>' +
    '<a href="javascript:window.__pwned=4">link text</a><svg onload="window.__pwned=5"></svg>';
  expect((await postByApi(poster, hostile)).ok()).toBe(true);
  page.on('dialog', () => {
    throw new Error('a dialog opened');
  });
  const section = await openComments(page);
  const text = section.locator('[data-comment]', { hasText: 'still here' }).locator('[data-comment-text]');
  await expect(text.locator('b')).toHaveText('still here');
  await text.locator('b').click();
  expect(await text.evaluate((el) => el.innerHTML)).toBe('<b>still here</b>link text');
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('the server’s refusals are shown in the page’s language: a banned member cannot post', async ({ browser }) => {
  const member = await (await browser.newContext()).newPage();
  const { uid } = await signUpByApi(member, 'Banned');
  expect(
    (await (await adminRequest()).post('/api/rbac/adminUpdateUserRole', { data: { uid, newRoles: ['blocked'] } })).ok(),
  ).toBe(true);
  await member.goto(`/ja/video/kv${videoId}`);
  await member.locator('astro-island:has([data-comments])').scrollIntoViewIfNeeded();
  await waitForIslands(member);
  const editor = member.locator('[data-comments]').getByRole('textbox');
  await editor.click();
  await member.keyboard.type('Let me in');
  await member.locator('[data-comment-send]').click();
  await expect(member.locator('[data-comment-error]')).toHaveText(msg('ja', 'api.userBlocked'));
  // Nothing typed is lost.
  await expect(editor).toHaveText('Let me in');
  await member.context().close();
});

const pageOf = (page: number, pages: number) =>
  msg('en', 'comments.pageOf').replace('{{page}}', String(page)).replace('{{pages}}', String(pages));

test('a reader pages through a long list of comments with next and previous, each step from the page shown', async ({
  browser,
  page,
}) => {
  // 24 more threads from four new members (the writer's limit is per member).
  const writers = await Promise.all([1, 2, 3, 4].map((n) => memberPage(browser, `Chatty${n}`)));
  for (let i = 0; i < 24; i += 1) expect((await postByApi(writers[i % 4]!, `thread number ${i}`)).ok()).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });
  const section = await openComments(page);
  await section.locator('[data-sort=new]').click();
  const floors = async () =>
    (await section.locator('.comment-list > li > [data-comment] [data-comment-floor]').allTextContents()).map((f) =>
      Number(/\d+/.exec(f)![0]),
    );
  const pageLabel = section.locator('[data-comment-page]');
  await expect(pageLabel).toHaveText(pageOf(1, 2));
  const first = await floors();
  expect(first).toHaveLength(20);

  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/video/comment?')) asked.push(request.url());
  });
  await section.getByRole('button', { name: msg('en', 'comments.next') }).click();
  await expect(pageLabel).toHaveText(pageOf(2, 2));
  // The label moves with the press; the list once its answer is in.
  await expect.poll(floors).not.toEqual(first);
  const second = await floors();
  expect(second.length).toBeGreaterThan(0);
  // The next page goes on below the last floor shown, read from that edge.
  expect(Math.max(...second)).toBeLessThan(Math.min(...first));
  expect(asked.at(-1)).toMatch(/after=new\.\d+/);
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('comments-page-2-1280.png'), fullPage: false });

  await section.getByRole('button', { name: msg('en', 'comments.previous') }).click();
  await expect(pageLabel).toHaveText(pageOf(1, 2));
  await expect.poll(floors).toEqual(first);

  // The same steps on a phone's width.
  await page.setViewportSize({ width: 375, height: 800 });
  await section.getByRole('button', { name: msg('en', 'comments.next') }).click();
  await expect(pageLabel).toHaveText(pageOf(2, 2));
  await expect.poll(floors).toEqual(second);
  await section.locator('nav.pager').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('comments-page-2-375.png'), fullPage: false });
  for (const writer of writers) await writer.context().close();
});

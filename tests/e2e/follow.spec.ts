/**
 * Following as a member uses it: follow the uploader from the video page (the count follows at
 * once), their next upload pushed to the feed appears in /feed/following, and unfollowing from
 * their user page empties the feed again, which then suggests uploaders. Guests are asked to log in.
 */
import { expect, test } from '@playwright/test';
import { msg, publishVideoByApi, shoot, signUpByApi, waitForIslands } from './helpers.ts';

const followers = (count: number) => msg('en', 'follow.followers').replace('{{count}}', String(count));

test('follow from the video page, the next upload is in the feed, unfollow empties it', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const uploaderPage = await (await browser.newContext()).newPage();
  const uploader = await signUpByApi(uploaderPage, 'Hoshizora');
  const first = await publishVideoByApi(uploaderPage, {
    title: 'Star trails over the bay',
    seconds: 3,
    pushToFeed: true,
  });
  await signUpByApi(page, 'Stargazer');

  await page.goto(`/en/video/kv${first.videoId}`);
  await waitForIslands(page);
  const box = page.locator('.video-uploader-row [data-follow-box]');
  await expect(box.locator('[data-follower-count]')).toHaveText(followers(0));
  await box.locator('[data-follow-button]').click();
  await expect(box.locator('[data-follow-button]')).toHaveAccessibleName(msg('en', 'follow.following'));
  await expect(box.locator('[data-follower-count]')).toHaveText(followers(1));
  // The state is the server's: after a reload the button still says so.
  await page.reload();
  await waitForIslands(page);
  await expect(page.locator('.video-uploader-row [data-follow-button]')).toHaveAttribute('data-following', 'true');

  const second = await publishVideoByApi(uploaderPage, {
    title: 'Meteor shower timelapse',
    seconds: 3,
    pushToFeed: true,
  });
  const quiet = await publishVideoByApi(uploaderPage, { title: 'Not for the feed', seconds: 3 });
  await page.goto('/en/feed/following');
  await expect(page.locator('[data-feed-state="ready"]')).toBeVisible();
  await expect(page.locator('.feed-page .video-card .video-title')).toHaveText([second.title, first.title]);
  await expect(page.locator(`.video-card[data-video-id="${quiet.videoId}"]`)).toHaveCount(0);

  await page.goto(`/en/user/${uploader.uid}`);
  await waitForIslands(page);
  const button = page.locator('.user-header [data-follow-button]');
  await expect(button).toHaveAttribute('data-following', 'true');
  await button.click();
  await expect(button).toHaveAccessibleName(msg('en', 'follow.follow'));
  await expect(page.locator('.user-header [data-follower-count]')).toHaveText(followers(0));

  await page.goto('/en/feed/following');
  await expect(page.locator('[data-feed-state="empty"]')).toContainText(msg('en', 'follow.empty'));
  await expect(page.locator(`[data-feed-state="empty"] [data-suggested-uid="${uploader.uid}"]`)).toBeVisible();
  await uploaderPage.context().close();
});

test('a refused follow goes back and says why; guests are asked to log in', async ({ browser, page }) => {
  test.setTimeout(120_000);
  const uploaderPage = await (await browser.newContext()).newPage();
  const uploader = await signUpByApi(uploaderPage, 'Kumo');
  await signUpByApi(page, 'Ame');
  const me = Number((await page.context().cookies()).find((c) => c.name === 'uid')!.value);
  // The uploader blocks this member: following is refused, the button and count go back.
  expect((await uploaderPage.request.post('/api/block/user', { data: { blockUid: me } })).status()).toBe(200);
  await page.goto(`/en/user/${uploader.uid}`);
  await waitForIslands(page);
  const button = page.locator('.user-header [data-follow-button]');
  await button.click();
  await expect(page.locator('.toast-error', { hasText: msg('en', 'api.followBlocked') })).toBeVisible();
  await expect(button).toHaveAccessibleName(msg('en', 'follow.follow'));
  await expect(page.locator('.user-header [data-follower-count]')).toHaveText(followers(0));

  const guest = await (await browser.newContext()).newPage();
  await guest.goto('/en/feed/following');
  await expect(guest.locator('[data-feed-state="guest"]')).toContainText(msg('en', 'follow.guest'));
  await guest.goto(`/en/user/${uploader.uid}`);
  await waitForIslands(guest);
  await guest.locator('.user-header [data-follow-button]').click();
  await expect(guest.getByRole('dialog')).toBeVisible();
  await guest.context().close();
  await uploaderPage.context().close();
});

test('the comment user card follows the commenter; the followers list shows the new follower with a follow button', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const uploaderPage = await (await browser.newContext()).newPage();
  await signUpByApi(uploaderPage, 'Tsuki');
  const video = await publishVideoByApi(uploaderPage, { title: 'Moonrise', seconds: 3 });
  const commenterPage = await (await browser.newContext()).newPage();
  const commenter = await signUpByApi(commenterPage, 'Hikari');
  expect(
    (
      await commenterPage.request.post('/api/user/update/info', { data: { signature: 'Drawing the moon every night' } })
    ).status(),
  ).toBeLessThan(500);
  expect(
    (
      await commenterPage.request.post('/api/video/comment/emit', {
        data: { videoId: video.videoId, text: 'Lovely light!' },
      })
    ).status(),
  ).toBe(200);
  const viewer = await signUpByApi(page, 'Nozomi');

  // The commenter's name opens their card; its follow button follows them (optimistically, then the server's count).
  await page.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(page);
  // The comments island wakes when scrolled to.
  await page.locator('[data-comments-slot]').scrollIntoViewIfNeeded();
  const toggle = page.locator(`[data-user-card-toggle="${commenter.uid}"]`);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const card = page.locator(`[data-user-card="${commenter.uid}"]`);
  await expect(card.locator('.user-card-name')).toHaveText('Hikari');
  await expect(card.locator('[data-follower-count]')).toHaveText(followers(0));
  await shoot(page, 'comment-user-card');
  await card.locator('[data-follow-button]').click();
  await expect(card.locator('[data-follow-button]')).toHaveAttribute('data-following', 'true');
  await expect(card.locator('[data-follower-count]')).toHaveText(followers(1));
  // Esc closes the card and gives the focus back to the name.
  await page.keyboard.press('Escape');
  await expect(card).toHaveCount(0);
  await expect(toggle).toBeFocused();

  // The commenter's followers list shows the new follower, with a follow button of their own.
  await page.goto(`/en/user/${commenter.uid}`);
  await waitForIslands(page);
  await page.locator('[data-user-tabs] a', { hasText: msg('en', 'followLists.followers') }).click();
  await expect(page).toHaveURL(new RegExp(`/en/user/${commenter.uid}/followers$`));
  const entry = page.locator(`[data-follow-list="followers"] [data-person-uid="${viewer.uid}"]`);
  await expect(entry).toContainText('Nozomi');
  await expect(entry.locator('[data-follow-button]')).toHaveCount(0); // oneself: no button
  // The viewer's followings list: the commenter, marked as followed.
  await page.goto(`/en/user/${viewer.uid}/followings`);
  await waitForIslands(page);
  const followed = page.locator(`[data-follow-list="followings"] [data-person-uid="${commenter.uid}"]`);
  await expect(followed.locator('[data-follow-button]')).toHaveAttribute('data-following', 'true');
  // From the commenter's own session, the follower's entry offers following back.
  await commenterPage.goto(`/en/user/${commenter.uid}/followers`);
  await waitForIslands(commenterPage);
  const back = commenterPage.locator(`[data-person-uid="${viewer.uid}"] [data-follow-button]`);
  await expect(back).toHaveAttribute('data-following', 'false');
  await shoot(commenterPage, 'followers-list');
  await back.click();
  await expect(back).toHaveAttribute('data-following', 'true');
  await uploaderPage.context().close();
  await commenterPage.context().close();
});

/**
 * Tracks and photo posts beside videos, as a member follows an uploader: follow from the track
 * page, their new track and photo post are in /feed/following with their own cards leading to
 * their pages; the track saved to a new collection from its page shows on the collection's page
 * as a track card; the track listened to is in the history.
 */
import { expect, test } from '@playwright/test';
import {
  msg,
  publishAudioByApi,
  publishPhotoByApi,
  publishVideoByApi,
  shoot,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

test('a followed uploader’s track and photo post are in the feed, and a track goes into a collection and the history', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000); // the real audio, photo and video pipelines
  const uploaderPage = await (await browser.newContext()).newPage();
  await signUpByApi(uploaderPage, 'Minato');
  const { audioId } = await publishAudioByApi(uploaderPage, {
    title: 'Harbour at night',
    artist: 'Minato',
    seconds: 6,
  });
  await signUpByApi(page, 'Listener');

  await page.goto(`/en/audio/ka${audioId}`);
  await waitForIslands(page);
  const follow = page.locator('.audio-actions [data-follow-button]');
  await follow.click();
  await expect(follow).toHaveAttribute('data-following', 'true');

  const { photoId } = await publishPhotoByApi(uploaderPage, {
    title: 'Lanterns on the pier',
    images: [{ width: 1200, height: 800, colour: '#3a6ea5', alt: 'Blue lanterns' }],
  });
  const video = await publishVideoByApi(uploaderPage, { title: 'Ferry crossing', seconds: 3, pushToFeed: true });
  await uploaderPage.context().close();

  await page.goto('/en/feed/following');
  await expect(page.locator('[data-feed-state="ready"]')).toBeVisible();
  const cards = page.locator('.feed-page li[data-feed-kind]');
  await expect(cards).toHaveCount(3);
  await expect(cards.locator('.video-title')).toHaveText([
    'Ferry crossing',
    'Lanterns on the pier',
    'Harbour at night',
  ]);
  await expect(cards.nth(0)).toHaveAttribute('data-feed-kind', 'video');
  await expect(cards.nth(0).locator('.video-title')).toHaveAttribute('href', `/en/video/kv${video.videoId}`);
  await expect(cards.nth(1)).toHaveAttribute('data-feed-kind', 'photo');
  await expect(cards.nth(1).locator('.video-title')).toHaveAttribute('href', `/en/photo/kp${photoId}`);
  await expect(cards.nth(1).locator('.card-kind')).toHaveText(msg('en', 'catalogue.kind.photo'));
  await expect(cards.nth(2)).toHaveAttribute('data-feed-kind', 'audio');
  await expect(cards.nth(2).locator('.card-kind')).toHaveText(msg('en', 'catalogue.kind.audio'));
  await shoot(page, 'feed-media');
  await cards.nth(2).locator('.video-title').click();
  await expect(page).toHaveURL(new RegExp(`/en/audio/ka${audioId}$`));

  // Saved to a new collection from the track page.
  await waitForIslands(page);
  await page.locator('[data-add-to-collection-button]').click();
  const dialog = page.locator('[data-collection-dialog]');
  await dialog.locator('[data-collection-new-title]').fill('Night sounds');
  await dialog.locator('[data-collection-new-submit]').click();
  const choice = dialog.locator('[data-collection-choice]');
  await expect(choice).toBeChecked();
  const collectionId = Number(await choice.getAttribute('data-collection-choice'));
  await dialog.getByRole('button', { name: msg('en', 'collections.close') }).click();
  // Listened to: recorded in the history.
  await page.request.post('/api/history/record', { data: { videoId: audioId, mediaType: 'audio', anchor: 2 } });

  await page.goto(`/en/collections/${collectionId}`);
  const item = page.locator('[data-list="collection-videos"] li[data-item-kind="audio"]');
  await expect(item).toHaveCount(1);
  await expect(item.locator('.video-title')).toHaveAttribute('href', `/en/audio/ka${audioId}`);
  await expect(item.locator('.card-kind')).toHaveText(msg('en', 'catalogue.kind.audio'));

  await page.goto('/en/history');
  await waitForIslands(page);
  const listened = page.locator(`.video-card[data-video-id="${audioId}"] .video-title[href="/en/audio/ka${audioId}"]`);
  await expect(listened).toHaveText('Harbour at night');
});

/**
 * Conversations on a phone (issue 27): B answers A's comment, mentioning A through the editor's
 * suggestions, and the thread shows the reply with A linked; B likes the video and takes it back.
 */
import { expect, test } from '@playwright/test';
import { E2E_BASE_URL, publishVideoByApi, signUpByApi, waitForIslands } from './helpers.ts';

test.describe.configure({ timeout: 180_000 });

test('B replies to A’s comment with @A and likes then unlikes the video, at 375 wide', async ({ browser }) => {
  const a = await (await browser.newContext()).newPage();
  const author = await signUpByApi(a, 'Author A');
  const { videoId } = await publishVideoByApi(a, { title: 'Talk about this' });
  const posted = await a.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, {
    data: { videoId, text: 'What did you think?' },
  });
  expect(posted.status()).toBe(200);

  const b = await (
    await browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true })
  ).newPage();
  await signUpByApi(b, 'Replier B');
  const errors: string[] = [];
  b.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await b.goto(`/en/video/kv${videoId}`);
  await waitForIslands(b);

  // Like, then unlike: the count follows, the button says which.
  const like = b.locator('[data-like-button]');
  await expect(like.locator('[data-like-count]')).toHaveText('0');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(like.locator('[data-like-count]')).toHaveText('1');
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(like.locator('[data-like-count]')).toHaveText('0');

  await b.locator('astro-island:has([data-comments])').scrollIntoViewIfNeeded();
  await waitForIslands(b);
  const thread = b.locator('[data-thread]').filter({ hasText: 'What did you think?' });
  await thread.locator('[data-reply]').first().click();
  const editor = thread.locator('[data-reply-editor] [role="textbox"]');
  await expect(editor).toBeFocused();
  // "@" and the first letters of A's name offer A (someone in the thread).
  await editor.pressSequentially(`@${author.username.slice(0, 3)}`);
  const option = thread.locator(`[data-mention-option="${author.username}"]`);
  await expect(option).toBeVisible();
  await option.click();
  await editor.pressSequentially('loved it');
  await thread.locator('[data-reply-editor] [data-comment-send]').click();

  const reply = thread.locator('[data-replies] .comment.is-reply');
  await expect(reply).toHaveCount(1);
  await expect(reply.locator('[data-comment-text]')).toHaveText(`@${author.username} loved it`);
  await expect(reply.locator('a.comment-mention')).toHaveAttribute('href', `/en/user/${author.uid}`);
  // Read again from the server: the thread keeps it.
  await b.reload();
  await b.locator('astro-island:has([data-comments])').scrollIntoViewIfNeeded();
  await waitForIslands(b);
  await expect(b.locator('[data-thread] [data-replies] a.comment-mention')).toHaveText(`@${author.username}`);
  expect(errors).toEqual([]);
  await a.context().close();
  await b.context().close();
});

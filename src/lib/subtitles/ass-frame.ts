/**
 * One frame of libass drawn at the moment the page asks, not at jassub's next video frame.
 *
 * How jassub (2.5.16) schedules its frames: on every frame the video presents
 * (`requestVideoFrameCallback`) it calls `manualRender`, whose `_demandRender` asks the worker to
 * draw that frame's time; while a draw is under way (`busy`) a frame that comes only sets
 * `_skipped`, and once the draw is back another is drawn if one was skipped, and so on. The
 * promise `manualRender` returns settles only when a draw ends with no video frame having come
 * during it: on a playing video (a frame each 40 ms at 25 fps), with draws over 40 ms (libass
 * cold, or a starved machine), that is a chain of draws one after another, and the frame asked
 * for is back only when the chain breaks (55–430 ms after the click in the quiet bench run of
 * 2026-11-27, seconds under load). jassub has no call that draws one frame without that chain
 * (`manualRender` is the same path; `resize` ends in it too).
 *
 * So the frame is asked of the worker's renderer itself (`renderer._draw`, what `_demandRender`
 * calls; jassub's README allows its `_` members "if the need arises"), one draw at the video's
 * current time, with jassub's own clock held: the caller keeps `busy` set from the renderer's
 * creation until this frame is back, so the video's frames only mark `_skipped` meanwhile and
 * queue no draw in the worker ahead of or behind this one. Once the caller clears `busy`, jassub
 * draws again at the next video frame, as it always does. No jassub code is patched.
 */
import type JASSUB from 'jassub';

/** What is needed of the video: its time, its size, whether a frame of it is decoded. */
type VideoNow = Pick<HTMLVideoElement, 'currentTime' | 'videoWidth' | 'videoHeight' | 'readyState'>;

/**
 * Draws the lines of `video`'s current time once, repainting the whole canvas; resolves when the
 * worker has drawn it (false when the video has no frame yet to draw over). To be called with
 * `made.busy` set (jassub's clock held; see above).
 */
export async function drawMomentNow(made: JASSUB, video: VideoNow): Promise<boolean> {
  if (video.readyState < 2) return false;
  const mediaTime = video.currentTime;
  // jassub's own sizing first: `manualRender` resizes libass's canvas to the picture when its size
  // changed (a paused video presents no frame that would), even while `busy`; with `busy` set it
  // draws nothing and only marks the frame as skipped, which jassub draws once its clock resumes.
  await made.manualRender({
    mediaTime,
    width: video.videoWidth,
    height: video.videoHeight,
    expectedDisplayTime: performance.now(),
  });
  await made.renderer._draw(mediaTime + made.timeOffset, true);
  return true;
}

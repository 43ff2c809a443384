/**
 * The one place that decides when a video page may fetch media segments. Nothing beyond the
 * playlists loads until the viewer plays (or seeks), unless the video is going to start by
 * itself anyway; a data-saver preference that turns autoplay off therefore stops this too.
 */
export function loadSegmentsBeforePlay(settings: { autoplay: boolean }): boolean {
  return settings.autoplay;
}

/** The `preload` attribute of the video element that goes with that decision. */
export const preloadAttribute = (settings: { autoplay: boolean }): 'auto' | 'none' =>
  loadSegmentsBeforePlay(settings) ? 'auto' : 'none';

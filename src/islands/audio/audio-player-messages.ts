/**
 * What the video player's parts say on the audio page, beside the audio namespace (the page picks
 * them for the AudioPlayer island; kept out of the island so the list is not shipped with it).
 */
export const AUDIO_PLAYER_PARTS_MESSAGES = [
  'player.resumed',
  'player.toggleDanmaku',
  'player.danmakuSettings',
  'player.density',
  'player.densities',
  'player.densityHints',
  'player.blockTypes',
  'player.block',
  'player.opacity',
  'player.fontScale',
  'player.speed',
  'player.area',
  'player.areaFull',
  'player.keepSubtitlesClear',
];

/** Danmaku's plain values, without zod: what the browser imports. */
export const DANMAKU_MODES = ['rtl', 'ltr', 'top', 'bottom'] as const;
export type DanmakuMode = (typeof DANMAKU_MODES)[number];
export const DANMAKU_SIZES = ['small', 'medium', 'large'] as const;
export type DanmakuSize = (typeof DANMAKU_SIZES)[number];
export const DANMAKU_TEXT_MAX = 100;
/** video/danmaku answers in time segments of this length, so long videos load progressively. */
export const DANMAKU_SEGMENT_SECONDS = 360;

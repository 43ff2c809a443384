/** Reports and the moderation log: plain values the browser may import (no zod). */
/** What a member can report. */
export const REPORT_TARGET_TYPES = ['video', 'audio', 'photo', 'comment', 'danmaku', 'user'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];
/** PeerTube's abuse reasons. */
export const REPORT_REASONS = ['spam', 'hateful', 'violent', 'sexual', 'privacy', 'rights', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** What staff may do with a report (per target type, see server/services/reports.ts). */
export const REPORT_ACTIONS = ['dismiss', 'hide', 'delete', 'ban'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export const REPORT_TEXT_MAX = 1000;
export const REPORT_NOTE_MAX = 1000;

/** Every kind of staff action the moderation log records. */
export const STAFF_ACTIONS = [
  'video.approve',
  'video.reject',
  'video.hide',
  'video.delete',
  'audio.approve',
  'audio.reject',
  'audio.hide',
  'audio.delete',
  'photo.approve',
  'photo.reject',
  'photo.hide',
  'photo.delete',
  'comment.delete',
  'danmaku.hide',
  'danmaku.delete',
  'profile.approve',
  'profile.clear',
  'user.roles',
  'user.ban',
  'report.resolve',
] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

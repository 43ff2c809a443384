/**
 * The client-side failure messages, exactly as SPEC §5 and §8 give them. Where the spec says a
 * Chinese message exists but does not show its text, the text here is ours.
 */
export const CALL_MESSAGES = {
  noKeyword: '未提供关键字',
  noTagId: '未提供 TAG ID',
  // The home, video, video-exists and user-videos fallbacks (获取首页视频失败, 视频不存在, 获取视频失败,
  // 获取用户上传的视频失败) and 未提供 KVID / 未提供 UID have no call: those pages render on the server
  // (docs/decisions/0019-server-rendered-lists.md).
  keywordSearchFailed: '根据关键字搜索视频失败',
  tagSearchFailed: '根据 TAG ID 搜索视频失败',
  getTagFailed: '根据 TAG ID 获取 TAG 失败',
  // Not shown in the spec: our texts.
  historyFailed: '获取历史记录失败',
  invitationCodesFailed: '获取邀请码失败',
} as const;

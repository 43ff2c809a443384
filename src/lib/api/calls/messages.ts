/**
 * The client-side failure messages, exactly as SPEC §5 and §8 give them. Where the spec says a
 * Chinese message exists but does not show its text, the text here is ours.
 */
export const CALL_MESSAGES = {
  noKvid: '未提供 KVID',
  noUid: '未提供 UID',
  noKeyword: '未提供关键字',
  noTagId: '未提供 TAG ID',
  homeVideosFailed: '获取首页视频失败',
  videoNotFound: '视频不存在',
  getVideoFailed: '获取视频失败',
  userVideosFailed: '获取用户上传的视频失败',
  keywordSearchFailed: '根据关键字搜索视频失败',
  tagSearchFailed: '根据 TAG ID 搜索视频失败',
  getTagFailed: '根据 TAG ID 获取 TAG 失败',
  // Not shown in the spec: our texts.
  historyFailed: '获取历史记录失败',
  userExistsFailed: '检查用户是否存在失败',
  invitationCodesFailed: '获取邀请码失败',
} as const;

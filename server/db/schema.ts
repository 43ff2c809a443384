import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;

/** Tables of the database; each later feature adds its own in a new migration. */
export interface UsersTable {
  uid: Generated<number>;
  username: string;
  user_nickname: string | null;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  created_at: CreatedAt;
  email: string | null;
  /** Argon2id; never leaves the server. */
  password_hash: string | null;
  signature: Generated<string>;
  avatar: Generated<string>;
  gender: Generated<string>;
  interface_language: Generated<string>;
  is_updated_after_review: Generated<boolean>;
  updated_at: Generated<Date>;
  user_birthday: Generated<string>;
  labels: ColumnType<string[], string[] | undefined, string[]>;
  website_name: Generated<string>;
  website_url: Generated<string>;
}

export type VerificationPurpose =
  | 'registration'
  | 'change-email'
  | 'change-password'
  | 'forgot-password'
  | 'login'
  | 'disable-2fa';

export interface VerificationCodesTable {
  id: Generated<number>;
  email: string;
  purpose: VerificationPurpose;
  code_hash: string;
  attempts: Generated<number>;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
}

export interface InvitationCodesTable {
  code: string;
  creator_uid: number | null;
  created_at: CreatedAt;
  assignee_uid: number | null;
  used_at: Date | null;
  disabled: Generated<boolean>;
}

export interface RateLimitsTable {
  key: string;
  window_start: Date;
  count: number;
}

export interface SessionsTable {
  /** SHA-256 of the session token: the token itself is never stored. */
  token_hash: string;
  uid: number;
  created_at: CreatedAt;
  expires_at: Date;
}

export interface VideosTable {
  video_id: Generated<number>;
  uploader_uid: number;
  title: string;
  status: ColumnType<'pending' | 'approved' | 'deleted', 'pending' | 'approved' | 'deleted' | undefined>;
  created_at: CreatedAt;
  description: Generated<string>;
  category: Generated<string>;
  copyright: Generated<string>;
  original_author: string | null;
  original_link: string | null;
  push_to_feed: Generated<boolean>;
  ensure_original: Generated<boolean>;
  /** A cover from the image service; null means the first part's poster frame. */
  cover: string | null;
  duration_ms: Generated<number>;
  watched_count: Generated<number>;
  search_text: Generated<string>;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  deleted_by: number | null;
  deleted_at: Date | null;
  /** A reviewer's refusal (migration 0023): one of REVIEW_REJECTION_REASONS, and a note for the uploader. */
  rejection_reason: Generated<string | null>;
  rejection_note: Generated<string | null>;
  comment_floor: Generated<number>;
}

export interface VideoPartsTable {
  video_id: number;
  part_index: number;
  title: Generated<string>;
  media_id: string;
}
export interface TagsTable {
  tag_id: Generated<number>;
  created_by: number | null;
  created_at: CreatedAt;
}
export interface TagNamesTable {
  tag_id: number;
  lang: string;
  name: string;
  name_lower: string;
  is_default: Generated<boolean>;
  is_original: Generated<boolean>;
}
export interface VideoTagsTable {
  video_id: number;
  tag_id: number;
  position: number;
}
/** Search rankings kept by triggers (migration 0033): an approved video's title pieces and tags in ranking order. */
export interface VideoTitleTermsTable {
  term: string;
  bucket: number;
  video_id: number;
}
export interface VideoTagRanksTable {
  tag_id: number;
  bucket: number;
  video_id: number;
}
export interface VideoViewsTable {
  video_id: number;
  viewer_key: string;
  hour: Date;
}
/** What danmaku, comments and history are on: `video_id` holds the id of a target of this type. */
export type MediaTargetType = 'video' | 'audio' | 'photo';
/** What an upload is (and the media item it becomes). */
export type UploadKind = MediaTargetType;
export interface DanmakuTable {
  id: Generated<number>;
  video_id: number;
  target_type: ColumnType<MediaTargetType, MediaTargetType | undefined, never>;
  uid: number;
  time: number;
  text: string;
  color: string;
  font_size: 'small' | 'medium' | 'large';
  mode: 'rtl' | 'ltr' | 'top' | 'bottom';
  rainbow: Generated<boolean>;
  created_at: CreatedAt;
  /** Brought in from a Bilibili XML file (0027). */
  imported: Generated<boolean>;
  /** Set when staff hid it after a report: kept for the record, shown to nobody. */
  hidden_at: Generated<Date | null>;
}
/** A member's report of something on the site, and how staff resolved it (migration 0026). */
export interface ReportsTable {
  report_id: Generated<number>;
  reporter_uid: number;
  target_type: string;
  target_id: number;
  target_owner_uid: number | null;
  reason: string;
  text: Generated<string>;
  time: number | null;
  snapshot: ColumnType<Record<string, unknown>, string | undefined, string>;
  status: Generated<'open' | 'resolved'>;
  action: string | null;
  note: string | null;
  resolved_by: number | null;
  resolved_at: Date | null;
  created_at: CreatedAt;
}
/** One staff action; only ever inserted. */
export interface ModerationLogTable {
  entry_id: Generated<number>;
  actor_uid: number;
  action: string;
  target_type: string;
  target_id: number;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
}
export interface CommentsTable {
  id: Generated<number>;
  video_id: number;
  target_type: ColumnType<MediaTargetType, MediaTargetType | undefined, never>;
  floor: number;
  uid: number;
  text: string;
  upvote_count: Generated<number>;
  downvote_count: Generated<number>;
  created_at: CreatedAt;
  deleted_at: Date | null;
  deleted_by: number | null;
  /** The top-level comment a reply belongs to (0024); null for a top-level comment. */
  parent_id: Generated<number | null>;
  /** The members the text mentions, resolved when written: a JSON array of { uid, username }. */
  mentions: ColumnType<CommentMention[], string | undefined, string>;
  /** The one comment the uploader pinned on their item. */
  pinned: Generated<boolean>;
  /** A thread head's replies not deleted, kept by a trigger (0037): a deleted head shows while it has one. */
  live_replies: ColumnType<number, never, never>;
}
export interface CommentMention {
  uid: number;
  username: string;
}
/** One member's like of a video, track or photo post (0024). */
export interface MediaLikesTable {
  target_type: MediaTargetType;
  target_id: number;
  uid: number;
  created_at: CreatedAt;
}
/** Likes counted on shards of an item's counter; the count is their sum (docs/decisions/0015). */
export interface LikeCounterShardsTable {
  target_type: MediaTargetType;
  target_id: number;
  shard: number;
  likes: Generated<number>;
}
export interface CommentVotesTable {
  comment_id: number;
  uid: number;
  vote: -1 | 1;
}
export interface BlockEntriesTable {
  id: Generated<number>;
  uid: number;
  type: 'block' | 'hide' | 'tag' | 'keyword' | 'regex';
  value: string;
  target_uid: number | null;
  tag_id: number | null;
  created_at: CreatedAt;
}
/** One member following another (never themselves). */
export interface FollowsTable {
  follower_uid: number;
  followed_uid: number;
  created_at: CreatedAt;
}
/** A subtitle track of a video's part; its files are under the part's media folder (0027). */
export interface VideoSubtitlesTable {
  subtitle_id: Generated<number>;
  video_id: number;
  part_index: number;
  media_id: string;
  language: string;
  label: string;
  format: 'ass' | 'srt' | 'vtt';
  source: Generated<'member' | 'stream'>;
  created_by: number | null;
  created_at: CreatedAt;
  /** An ASS track's own cut of the fallback font is stored beside it (0035). */
  fallback_font: Generated<boolean>;
  /** The font names an ASS track's lines use (0036), as server/media/subtitle-formats.ts's fontNameKey makes them; null before. */
  font_names: string[] | null;
}
/** A notification to a member (0025): one event, or one group (the likes of an item in a day). */
export interface NotificationsTable {
  id: Generated<number>;
  recipient_uid: number;
  kind: string;
  category: string;
  group_key: string | null;
  actor_uids: Generated<number[]>;
  actor_count: Generated<number>;
  target_type: string | null;
  target_id: number | null;
  detail: Generated<Record<string, unknown>>;
  is_read: Generated<boolean>;
  mail_pending: Generated<boolean>;
  created_at: Generated<Date>;
}
export interface NotificationSettingsTable {
  uid: number;
  kind: string;
  channel: 'site' | 'email' | 'off';
}
export interface NotificationDigestsTable {
  uid: number;
  sent_at: Date;
}
export interface CollectionsTable {
  collection_id: Generated<number>;
  owner_uid: number;
  title: string;
  description: Generated<string>;
  visibility: Generated<'public' | 'private'>;
  /** A chosen cover video; null means the first available video's poster. */
  cover_video_id: number | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}
/** An item of a collection: `video_id` holds the id of the target of `target_type` (0022). */
export interface CollectionVideosTable {
  collection_id: number;
  video_id: number;
  target_type: ColumnType<MediaTargetType, MediaTargetType | undefined, never>;
  position: number;
  added_at: CreatedAt;
}
/** Comment floor counters of non-video targets (videos keep theirs on the video row). */
export interface CommentFloorsTable {
  target_type: MediaTargetType;
  target_id: number;
  floor: number;
}
/** A target's shown comment threads, kept by a trigger on comments (0037, decision 0039). */
export interface CommentThreadCountsTable {
  target_type: MediaTargetType;
  target_id: number;
  threads: number;
}
export interface WatchHistoryTable {
  uid: number;
  video_id: number;
  target_type: ColumnType<MediaTargetType, MediaTargetType | undefined, never>;
  anchor: Generated<number>;
  updated_at: Generated<Date>;
}

export interface TotpAuthenticatorsTable {
  uid: number;
  /** Base32 secret: never leaves the server after the setup URI. */
  secret: string;
  created_at: CreatedAt;
  confirmed_at: Date | null;
  /** The last accepted 30-second step: a code is never accepted twice. */
  last_used_step: Generated<number>;
  failed_attempts: Generated<number>;
  locked_until: Date | null;
  backup_code_hashes: ColumnType<string[], string[] | undefined, string[]>;
  recovery_code_hash: string | null;
}

export interface UserSettingsTable {
  uid: number;
  theme_type: Generated<string>;
  theme_color: Generated<string>;
  theme_color_custom: Generated<string>;
  wallpaper: Generated<string>;
  colored_side_bar: Generated<boolean>;
  history_enabled: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface EmailAuthenticatorsTable {
  uid: number;
  created_at: CreatedAt;
}

export interface UploadsTable {
  id: string;
  uid: number;
  file_name: string;
  size: number;
  max_duration_seconds: number;
  kind: ColumnType<UploadKind, UploadKind | undefined, never>;
  created_at: CreatedAt;
  expires_at: Date;
  finished_at: Date | null;
  /** Given when the last byte arrives; the video pipeline takes over from there. */
  media_id: string | null;
}

export type MediaStatus = 'uploaded' | 'probed' | 'transcoding' | 'playable' | 'ready' | 'rejected' | 'failed';
export interface MediaTable {
  media_id: string;
  upload_id: string;
  uid: number;
  kind: ColumnType<UploadKind, UploadKind | undefined, never>;
  status: ColumnType<MediaStatus, MediaStatus | undefined, MediaStatus>;
  /** Why a file was refused: NOT_A_VIDEO, TOO_LONG, CORRUPT. */
  reason: string | null;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  video_codec: string | null;
  audio_codec: string | null;
  /** Frames per second (ffprobe's average); null when unknown. */
  frame_rate: number | null;
  /** Token of the poster set (migration 0020); null: only poster.jpg. */
  poster_set: string | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
  renditions: ColumnType<number[], number[] | undefined, number[]>;
  storyboard: ColumnType<StoryboardInfo | null, string | undefined, string>;
  /** Audio: ~1000 peak levels (0..1), integrated loudness (LUFS), true peak (dBTP), the extracted cover's file name. */
  waveform: ColumnType<number[] | null, string | undefined, string>;
  loudness_lufs: number | null;
  true_peak_db: number | null;
  cover_file: string | null;
  /** What the transcode found in the file's subtitle and attachment streams (0028); null until it looked. */
  stream_subtitles: ColumnType<StreamSubtitles | null, string | undefined, string>;
  stream_subtitles_adopted: Generated<boolean>;
}

export interface AudioTracksTable {
  audio_id: Generated<number>;
  uploader_uid: number;
  media_id: string;
  title: string;
  artist: Generated<string>;
  description: Generated<string>;
  category: Generated<string>;
  copyright: Generated<string>;
  original_author: string | null;
  original_link: string | null;
  cover: string | null;
  duration_ms: number;
  play_count: Generated<number>;
  search_text: Generated<string>;
  status: Generated<'pending' | 'approved' | 'deleted'>;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  deleted_by: number | null;
  deleted_at: Date | null;
  /** A reviewer's refusal (migration 0023): one of REVIEW_REJECTION_REASONS, and a note for the uploader. */
  rejection_reason: Generated<string | null>;
  rejection_note: Generated<string | null>;
  created_at: CreatedAt;
}
export interface AudioTagsTable {
  audio_id: number;
  tag_id: number;
  position: number;
}
export interface AudioPlaysTable {
  audio_id: number;
  listener_key: string;
  hour: Date;
}

/** A text subtitle stream extracted from an upload, waiting to become a track of the part it is in. */
export interface StreamTrack {
  stream: number;
  format: 'ass' | 'srt' | 'vtt';
  language: string;
  label: string;
  file: string;
}
/** Something of a stream that did not become a track or a font, as its uploader reads it. */
export interface StreamNote {
  stream: number;
  code: string;
  codec?: string;
}
/**
 * 0028: the streams' tracks (extracted files under the media folder), the fonts kept (file names under `fonts/`), and the notes.
 * `fontNames` (since 0036, in the same JSON): the names each kept font answers to; a font missing there (kept before, or
 * unreadable) is given to every ASS track.
 */
export interface StreamSubtitles {
  tracks: StreamTrack[];
  fonts: string[];
  fontNames?: Record<string, string[]>;
  notes: StreamNote[];
}
export interface StoryboardInfo {
  file: string;
  intervalSeconds: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  count: number;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  status: ColumnType<
    'queued' | 'running' | 'done' | 'failed',
    'queued' | undefined,
    'queued' | 'running' | 'done' | 'failed'
  >;
  attempts: Generated<number>;
  run_after: Generated<Date>;
  locked_until: Date | null;
  /** The holder of a running job, `host:pid:token` (migration 0016). */
  locked_by: string | null;
  last_error: string | null;
  created_at: CreatedAt;
}

export type PhotoStatus = 'processing' | 'pending' | 'approved' | 'failed' | 'deleted';
export interface PhotosTable {
  photo_id: Generated<number>;
  uploader_uid: number;
  title: string;
  description: Generated<string>;
  copyright: string;
  original_author: string | null;
  keep_camera_data: Generated<boolean>;
  status: ColumnType<PhotoStatus, PhotoStatus | undefined, PhotoStatus>;
  /** Why rendering failed: a photo refusal code, or CORRUPT. */
  failure: string | null;
  search_text: Generated<string>;
  created_at: CreatedAt;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  deleted_by: number | null;
  deleted_at: Date | null;
  /** A reviewer's refusal (migration 0023): one of REVIEW_REJECTION_REASONS, and a note for the uploader. */
  rejection_reason: Generated<string | null>;
  rejection_note: Generated<string | null>;
}
export interface PhotoImagesTable {
  image_id: Generated<number>;
  photo_id: number;
  position: number;
  media_id: string;
  alt: string;
  width: number | null;
  height: number | null;
  /** The widths written; empty until rendered. */
  widths: ColumnType<number[], number[] | undefined, number[]>;
  animated: Generated<boolean>;
  placeholder: Generated<string>;
  camera: ColumnType<Record<string, string | number> | null, string | null | undefined, string | null>;
}
export interface PhotoTagsTable {
  photo_id: number;
  tag_id: number;
  position: number;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  videos: VideosTable;
  verification_codes: VerificationCodesTable;
  invitation_codes: InvitationCodesTable;
  rate_limits: RateLimitsTable;
  totp_authenticators: TotpAuthenticatorsTable;
  user_settings: UserSettingsTable;
  app_secrets: AppSecretsTable;
  email_authenticators: EmailAuthenticatorsTable;
  uploads: UploadsTable;
  media: MediaTable;
  photos: PhotosTable;
  photo_images: PhotoImagesTable;
  photo_tags: PhotoTagsTable;
  jobs: JobsTable;
  video_parts: VideoPartsTable;
  tags: TagsTable;
  tag_names: TagNamesTable;
  video_tags: VideoTagsTable;
  video_title_terms: VideoTitleTermsTable;
  video_tag_ranks: VideoTagRanksTable;
  video_views: VideoViewsTable;
  danmaku: DanmakuTable;
  comments: CommentsTable;
  comment_votes: CommentVotesTable;
  media_likes: MediaLikesTable;
  like_counter_shards: LikeCounterShardsTable;
  watch_history: WatchHistoryTable;
  comment_floors: CommentFloorsTable;
  comment_thread_counts: CommentThreadCountsTable;
  audio_tracks: AudioTracksTable;
  audio_tags: AudioTagsTable;
  audio_plays: AudioPlaysTable;
  block_entries: BlockEntriesTable;
  follows: FollowsTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  notification_digests: NotificationDigestsTable;
  collections: CollectionsTable;
  collection_videos: CollectionVideosTable;
  video_subtitles: VideoSubtitlesTable;
  reports: ReportsTable;
  moderation_log: ModerationLogTable;
}

import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_accounts.ts';
import * as m0003 from './0003_totp.ts';
import * as m0004 from './0004_profile.ts';
import * as m0005 from './0005_settings_and_media.ts';
import * as m0006 from './0006_email_authenticator.ts';
import * as m0007 from './0007_uploads.ts';
import * as m0008 from './0008_media_jobs.ts';
import * as m0009 from './0009_renditions.ts';
import * as m0010 from './0010_catalogue.ts';
import * as m0011 from './0011_danmaku_comments_history.ts';
import * as m0012 from './0012_block_lists.ts';
import * as m0013 from './0013_frame_rate.ts';
import * as m0014 from './0014_follows.ts';
import * as m0015 from './0015_collections.ts';
import * as m0016 from './0016_job_leases.ts';
import * as m0017 from './0017_media_kinds.ts';
import * as m0018 from './0018_audio.ts';
import * as m0019 from './0019_photos.ts';
import * as m0020 from './0020_poster_sets.ts';
import * as m0021 from './0021_poster_sets_960.ts';
import * as m0022 from './0022_collection_media.ts';
import * as m0023 from './0023_review_rejections.ts';
import * as m0024 from './0024_replies_likes.ts';
import * as m0025 from './0025_notifications.ts';
import * as m0026 from './0026_reports_moderation_log.ts';
import * as m0027 from './0027_subtitles.ts';
import * as m0028 from './0028_subtitle_streams.ts';
import * as m0029 from './0029_related_covering_indexes.ts';
import * as m0030 from './0030_search_grams.ts';
import * as m0031 from './0031_category_listing.ts';
import * as m0032 from './0032_danmaku_segment_index.ts';
import * as m0033 from './0033_video_search_postings.ts';
import * as m0034 from './0034_danmaku_pool_time.ts';
import * as m0035 from './0035_subtitle_fallback_font.ts';
import * as m0036 from './0036_subtitle_font_names.ts';
import * as m0037 from './0037_comment_thread_counts.ts';
import * as m0038 from './0038_tag_name_grams.ts';
import * as m0039 from './0039_sitemap_files.ts';

/** Every migration, in order. Names never change once released. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_accounts': m0002,
  '0003_totp': m0003,
  '0004_profile': m0004,
  '0005_settings_and_media': m0005,
  '0006_email_authenticator': m0006,
  '0007_uploads': m0007,
  '0008_media_jobs': m0008,
  '0009_renditions': m0009,
  '0010_catalogue': m0010,
  '0011_danmaku_comments_history': m0011,
  '0012_block_lists': m0012,
  '0013_frame_rate': m0013,
  '0014_follows': m0014,
  '0015_collections': m0015,
  '0016_job_leases': m0016,
  '0017_media_kinds': m0017,
  '0018_audio': m0018,
  '0019_photos': m0019,
  '0020_poster_sets': m0020,
  '0021_poster_sets_960': m0021,
  '0022_collection_media': m0022,
  '0023_review_rejections': m0023,
  '0024_replies_likes': m0024,
  '0025_notifications': m0025,
  '0026_reports_moderation_log': m0026,
  '0027_subtitles': m0027,
  '0028_subtitle_streams': m0028,
  '0029_related_covering_indexes': m0029,
  '0030_search_grams': m0030,
  '0031_category_listing': m0031,
  '0032_danmaku_segment_index': m0032,
  '0033_video_search_postings': m0033,
  '0034_danmaku_pool_time': m0034,
  '0035_subtitle_fallback_font': m0035,
  '0036_subtitle_font_names': m0036,
  '0037_comment_thread_counts': m0037,
  '0038_tag_name_grams': m0038,
  '0039_sitemap_files': m0039,
};

/**
 * The following feed shows videos, tracks and photo posts in one grid of cards (the video card's
 * markup): a track or a post as a card leading to its own page, with its cover as the picture.
 */
import type { VideoThumb } from '../api/contract.ts';
import type { FeedItem } from '../api/contract-feed.ts';
import type { Locale } from '../i18n/locales.ts';
import { audioPath, videoPath } from './format.ts';
import { photoPostPath, pictureSources } from '../photo/picture.ts';

export interface FeedCard { kind: FeedItem['type']; key: string; thumb: VideoThumb; href: string }

export function feedCard(item: FeedItem, locale: Locale): FeedCard {
  if (item.type === 'video') return { kind: 'video', key: `v${item.video.videoId}`, thumb: item.video, href: videoPath(item.video.videoId, locale) };
  if (item.type === 'audio') {
    const { track } = item;
    return {
      kind: 'audio', key: `a${track.audioId}`, href: audioPath(track.audioId, locale),
      thumb: {
        videoId: track.audioId, title: track.title, image: track.cover, uploadDate: track.uploadDate, watchedCount: track.playCount,
        uploader: track.uploader, uploaderNickname: track.uploaderNickname, uploaderId: track.uploaderId, duration: track.duration,
        description: '', videoCategory: track.category,
      },
    };
  }
  const { photo } = item;
  return {
    kind: 'photo', key: `p${photo.photoId}`, href: photoPostPath(photo.photoId, locale),
    thumb: {
      videoId: photo.photoId, title: photo.title, image: photo.cover ? pictureSources(photo.cover)?.src ?? '' : '', uploadDate: photo.uploadDate,
      watchedCount: 0, uploader: photo.uploader, uploaderNickname: photo.uploaderNickname, uploaderId: photo.uploaderId, duration: 0,
      description: '', videoCategory: 'photo',
    },
  };
}

/**
 * Lists of videos, tracks and photo posts together (the following feed, a collection) show them
 * in one grid of cards (the video card's markup): a track or a post as a card leading to its own
 * page, with its cover as the picture, marked with its kind.
 */
import type { VideoThumb } from '../api/contracts/video.ts';
import type { MediaItem } from '../api/contracts/feed.ts';
import type { Locale } from '../i18n/locales.ts';
import { audioPath, videoInCollectionPath, videoPath } from './format.ts';
import { photoPostPath, pictureSources } from '../photo/picture.ts';

export interface MediaCard {
  kind: MediaItem['type'];
  key: string;
  thumb: VideoThumb;
  href: string;
}

/** `collectionId`: a video card opens the video played from that collection. */
/** What a list of items (a collection's order editor) shows of one: its kind, id, key, title and picture. */
export function itemSummary(item: MediaItem): {
  type: MediaItem['type'];
  id: number;
  key: string;
  title: string;
  image: string;
} {
  if (item.type === 'video')
    return {
      type: 'video',
      id: item.video.videoId,
      key: `video:${item.video.videoId}`,
      title: item.video.title,
      image: item.video.image,
    };
  if (item.type === 'audio')
    return {
      type: 'audio',
      id: item.track.audioId,
      key: `audio:${item.track.audioId}`,
      title: item.track.title,
      image: item.track.cover,
    };
  const cover = item.photo.cover ? (pictureSources(item.photo.cover)?.src ?? '') : '';
  return {
    type: 'photo',
    id: item.photo.photoId,
    key: `photo:${item.photo.photoId}`,
    title: item.photo.title,
    image: cover,
  };
}

export function mediaCard(item: MediaItem, locale: Locale, collectionId?: number): MediaCard {
  if (item.type === 'video')
    return {
      kind: 'video',
      key: `v${item.video.videoId}`,
      thumb: item.video,
      href: collectionId
        ? videoInCollectionPath(item.video.videoId, collectionId, locale)
        : videoPath(item.video.videoId, locale),
    };
  if (item.type === 'audio') {
    const { track } = item;
    return {
      kind: 'audio',
      key: `a${track.audioId}`,
      href: audioPath(track.audioId, locale),
      thumb: {
        videoId: track.audioId,
        title: track.title,
        image: track.cover,
        uploadDate: track.uploadDate,
        watchedCount: track.playCount,
        uploader: track.uploader,
        uploaderNickname: track.uploaderNickname,
        uploaderId: track.uploaderId,
        duration: track.duration,
        description: '',
        videoCategory: track.category,
      },
    };
  }
  const { photo } = item;
  return {
    kind: 'photo',
    key: `p${photo.photoId}`,
    href: photoPostPath(photo.photoId, locale),
    thumb: {
      videoId: photo.photoId,
      title: photo.title,
      image: photo.cover ? (pictureSources(photo.cover)?.src ?? '') : '',
      uploadDate: photo.uploadDate,
      watchedCount: 0,
      uploader: photo.uploader,
      uploaderNickname: photo.uploaderNickname,
      uploaderId: photo.uploaderId,
      duration: 0,
      description: '',
      videoCategory: 'photo',
    },
  };
}

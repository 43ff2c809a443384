import { call } from '../client.ts';
import type { SubtitleFormat } from '../contracts/subtitle.constants.ts';

/** Subtitle tracks of a video (issue 29). */
export const listSubtitles = (videoId: number) => call('GET video/subtitle/list', { videoId });
export const createSubtitle = (body: {
  videoId: number;
  part: number;
  language: string;
  label: string;
  format: SubtitleFormat;
  text: string;
}) => call('POST video/subtitle/create', body);
export const deleteSubtitle = (id: number) => call('DELETE video/subtitle/delete', { id });

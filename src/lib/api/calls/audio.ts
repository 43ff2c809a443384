/** The audio section's calls (they throw HttpError; the islands show the message). */
import { call } from '../client.ts';
import type { AudioUpdateBody, AudioUploadBody } from '../contracts/audio.ts';

export const commitAudio = (body: AudioUploadBody) => call('POST audio/upload', body);
export const countAudioPlay = (audioId: number) => call('POST audio/play', { audioId });
export const getPendingAudio = (query: { page: number; pageSize: number }) => call('GET audio/pending', query);
export const approvePendingAudio = (audioId: number) => call('POST audio/pending/approved', { audioId });
export const deleteAudio = (audioId: number) => call('DELETE audio/delete', { audioId });
/** Public tracks matching a keyword, or carrying one tag. */
export const searchAudio = (
  query: { keyword: string } | { tagId: number },
  paging: { page: number; pageSize: number },
) => call('GET audio/search', { ...query, ...paging });
/** The caller's own tracks (pending and approved), newest first: "my tracks". */
export const getMyTracks = (query: { page: number; pageSize: number }) => call('GET audio/mine', query);
export const updateAudio = (body: AudioUpdateBody) => call('POST audio/update', body);

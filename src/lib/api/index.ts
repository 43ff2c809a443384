// The browser's API: one typed function per call of SPEC §7, on the shared contract.
export {
  request,
  setApiBase,
  buildUrl,
  HttpError,
  TimeoutError,
  REQUEST_TIMEOUT_MS,
  UPLOAD_TIMEOUT_MS,
} from './http.ts';
export * from './calls/video.ts';
export * from './calls/user.ts';
export * from './calls/interaction.ts';
export * from './calls/block.ts';
export * from './calls/feed.ts';
export * from './calls/audio.ts';
export { CALL_MESSAGES } from './calls/messages.ts';

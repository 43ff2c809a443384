import { describe, expect, it } from 'vitest';
import { uploadExpiry, UPLOAD_EXPIRY_MS } from '../../server/media/uploads.ts';

describe('the expiry an uploader asks for', () => {
  const now = Date.UTC(2026, 10, 22, 9, 0, 0);
  it('is kept when it lies within the hour, as epoch milliseconds or an ISO date', () => {
    expect(uploadExpiry(String(now + 1_800_000), now).getTime()).toBe(now + 1_800_000);
    expect(uploadExpiry(new Date(now + 600_000).toISOString(), now).getTime()).toBe(now + 600_000);
  });
  it('is held to at most an hour and at least a minute; nonsense or nothing means an hour', () => {
    expect(uploadExpiry(String(now + 10 * UPLOAD_EXPIRY_MS), now).getTime()).toBe(now + UPLOAD_EXPIRY_MS);
    expect(uploadExpiry(String(now - 5000), now).getTime()).toBe(now + 60_000);
    expect(uploadExpiry('tomorrow-ish', now).getTime()).toBe(now + UPLOAD_EXPIRY_MS);
    expect(uploadExpiry(undefined, now).getTime()).toBe(now + UPLOAD_EXPIRY_MS);
  });
});

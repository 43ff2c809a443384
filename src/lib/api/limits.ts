/** Named rate limits (per client address, per account or per member), in one place. */
export interface Limit {
  limit: number;
  windowMs: number;
}

export const LIMITS = {
  // Logins: every attempt from an address, and every attempt at one account from one address,
  // so one address guessing never stops the owner logging in from another.
  loginPerIp: { limit: 30, windowMs: 15 * 60_000 },
  loginPerAccountIp: { limit: 10, windowMs: 15 * 60_000 },
  // Wrong passwords for one account from every address (guessing spread over many): past this,
  // the password alone no longer logs in, but with a second factor or a mailed code it does.
  loginFailuresPerAccount: { limit: 50, windowMs: 24 * 60 * 60_000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60_000 },
  codePerIp: { limit: 20, windowMs: 60 * 60_000 },
  lookupPerIp: { limit: 120, windowMs: 60_000 },
  // One danmaku per 3 s, and no more than 20 a minute even when spaced.
  danmakuPerUser: { limit: 1, windowMs: 3_000 },
  danmakuBurstPerUser: { limit: 20, windowMs: 60_000 },
  commentPerUser: { limit: 10, windowMs: 60_000 },
  // Follow and unfollow clicks: plenty for a person, a wall for a script.
  followPerUser: { limit: 60, windowMs: 60_000 },
  // Collection edits (create, add, reorder…): a person sorting a playlist, not a script filling one.
  collectionPerUser: { limit: 120, windowMs: 60_000 },
  // Reports: enough for a member who meets a wave of spam, not for a script burying the queue.
  reportPerUser: { limit: 10, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Limit>;

export type RateLimitName = keyof typeof LIMITS;

/** The counter's key prefix of each limit (kept from before the table: counters survive a deploy). */
export const LIMIT_KEY_PREFIX: Record<RateLimitName, string> = {
  loginPerIp: 'login-ip',
  loginPerAccountIp: 'login-account-ip',
  loginFailuresPerAccount: 'login-failures',
  registerPerIp: 'register',
  codePerIp: 'code',
  lookupPerIp: 'lookup',
  danmakuPerUser: 'danmaku',
  danmakuBurstPerUser: 'danmaku-burst',
  commentPerUser: 'comment',
  followPerUser: 'follow',
  collectionPerUser: 'collection',
  reportPerUser: 'report',
};

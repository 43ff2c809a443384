/** The user family's schemas: registration, login, codes, the self and public profiles. */
import { z } from 'zod';
import type { ApiErrorBody } from '../errors.ts';
import { blockFlags, clientLanguage, email, positiveId } from './common.ts';

export const userExistsQuery = z.object({ uid: positiveId });
export const userExistsResponse = z.object({
  success: z.boolean(),
  exists: z.boolean(),
  message: z.string().optional(),
});
export type UserExistsResponse = z.infer<typeof userExistsResponse>;

export const requestCodeBody = z.object({ email, clientLanguage });
export const registerBody = z.object({
  email,
  password: z.string().min(1).max(1000),
  verificationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be 6 digits'),
  username: z.string().max(200),
  userNickname: z.string().max(200).optional(),
  invitationCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^KIRA-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must look like KIRA-XXXX-XXXX'),
  clientLanguage,
});
export type RegisterBody = z.input<typeof registerBody>;
export const loginBody = z.object({
  email,
  password: z.string().min(1).max(1000),
  clientOtp: z.string().max(64).optional(),
  verificationCode: z.string().max(16).optional(),
});
export type LoginBody = z.input<typeof loginBody>;
export const emailQuery = z.object({ email });
export const usernameQuery = z.object({ username: z.string().min(1).max(200) });
export const uidQuery = z.object({ uid: positiveId });
export const invitationCodeBody = z.object({ invitationCode: z.string().trim().toUpperCase().max(64) });

/** Whether an address has an account (existsCheck), a name is free, an invitation code unused. */
export const emailExistsResponse = z.object({ success: z.literal(true), exists: z.boolean() });
export const usernameAvailableResponse = z.object({ success: z.literal(true), isAvailableUsername: z.boolean() });
export const invitationCodeAvailableResponse = z.object({
  success: z.literal(true),
  isAvailableInvitationCode: z.boolean(),
});
/** A code was mailed (a cool-down is the error COOLING_DOWN, with isCoolingDown and Retry-After). */
export const codeSentResponse = z.object({ success: z.literal(true), isCoolingDown: z.boolean() });
export type CodeSentResponse = z.infer<typeof codeSentResponse>;

export const authenticatorType = z.enum(['none', 'totp', 'email']);
export const selfUserInfo = z.object({
  uid: z.number(),
  email: z.string().nullable(),
  roles: z.array(z.string()),
  authenticatorType,
  userCreateDateTime: z.number(),
  username: z.string(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
  signature: z.string(),
  gender: z.string(),
});
export type SelfUserInfo = z.infer<typeof selfUserInfo>;
/** Login and registration: the new session is in the cookies. */
export const loginResponse = z.object({ success: z.literal(true), uid: z.number() });
export type LoginResponse = z.infer<typeof loginResponse>;
/** A login's error; SECOND_FACTOR_REQUIRED (the password was right) names the factor to ask for. */
export type LoginErrorBody = ApiErrorBody & { authenticatorType?: 'totp' | 'email' };
export const selfResponse = z.object({ success: z.literal(true), result: selfUserInfo });
export type SelfResponse = z.infer<typeof selfResponse>;
export const checkResponse = z.object({ success: z.literal(true), userTokenOk: z.boolean() });
export type CheckResponse = z.infer<typeof checkResponse>;
/** What anyone may see of a user (never the e-mail address). */
export const profileFields = z.object({
  uid: z.number(),
  username: z.string(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
  signature: z.string(),
  gender: z.string(),
  userBirthday: z.string(),
  label: z.array(z.object({ id: z.number(), labelName: z.string() })),
  userWebsite: z.object({ websiteName: z.string(), websiteUrl: z.string() }),
  userCreateDateTime: z.number(),
  roles: z.array(z.string()),
});
export const publicProfile = profileFields.extend({
  userBannerImage: z.string(),
  isFollowing: z.boolean(),
  isSelf: z.boolean(),
  /** How many follow this user, and how many they follow. */
  followerCount: z.number(),
  followingCount: z.number(),
});
export type PublicProfile = z.infer<typeof publicProfile>;
/** user/info: the profile and the block flags between the viewer and this user. */
export const userInfoResponse = blockFlags.extend({ success: z.literal(true), result: publicProfile });

export const sendLoginCodeBody = z.object({ email, password: z.string().min(1).max(1000), clientLanguage });

/** The account family's schemas: the signed-in member's own settings, second factors, credentials, invitation codes. */
import { z } from 'zod';
import { clientLanguage, email, shownText } from './common.ts';
import { coverPreUploadResponse } from './upload.ts';
import { authenticatorType } from './user.ts';

export const invitationCode = z.object({
  creatorUid: z.number().nullable(),
  invitationCode: z.string(),
  generationDateTime: z.number(),
  isPending: z.boolean(),
  disabled: z.boolean(),
  assignee: z.number().nullable(),
  usedDateTime: z.number().nullable(),
});
export type InvitationCode = z.infer<typeof invitationCode>;
export const invitationCodeListResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  invitationCodeResult: z.array(invitationCode),
});
export type InvitationCodeListResponse = z.infer<typeof invitationCodeListResponse>;
/** A new code; staff have no limit, members one a week from a week-old account (else COOLING_DOWN, ACCOUNT_TOO_NEW). */
export const invitationCodeCreateResponse = z.object({
  success: z.literal(true),
  isCoolingDown: z.boolean(),
  invitationCodeResult: invitationCode,
});

export const totpConfirmBody = z.object({
  clientOtp: z.string().trim().min(6).max(64),
  otpAuth: z.string().max(500).optional(),
});
export const totpDeleteBody = z.object({
  clientOtp: z.string().trim().min(6).max(64),
  password: z.string().min(1).max(1000),
});
/** TOTP setup started: the secret, once, as an otpauth:// URI. */
export const totpCreateResponse = z.object({
  success: z.literal(true),
  isExists: z.literal(false),
  existsAuthenticatorType: z.null(),
  result: z.object({ otpAuth: z.string() }),
});
export type TotpCreateResponse = z.infer<typeof totpCreateResponse>;
/** The 409 CONFLICT of a second factor's creation (one at a time): the error, and the factor the account has. */
export const authenticatorExistsAnswer = z.object({
  success: z.literal(false),
  code: z.literal('CONFLICT'),
  message: z.string(),
  requestId: z.string().optional(),
  isExists: z.literal(true),
  existsAuthenticatorType: z.enum(['totp', 'email']),
  result: z.null(),
});
export type AuthenticatorExistsAnswer = z.infer<typeof authenticatorExistsAnswer>;
export const emailAuthenticatorCreateResponse = z.object({
  success: z.literal(true),
  isExists: z.literal(false),
  existsAuthenticatorType: z.null(),
});
export const totpConfirmResponse = z.object({
  success: z.literal(true),
  result: z.object({ backupCode: z.array(z.string()), recoveryCode: z.string() }),
});
export type TotpConfirmResponse = z.infer<typeof totpConfirmResponse>;
export const have2FAResponse = z.object({
  success: z.literal(true),
  have2FA: z.boolean(),
  type: authenticatorType,
  totpCreationDateTime: z.number().nullable(),
});
export type Have2FAResponse = z.infer<typeof have2FAResponse>;

// ---- Profile and its review ----
export const GENDERS = ['', 'male', 'female', 'other'] as const;
export const updateInfoBody = z.object({
  username: z.string().max(200).optional(),
  userNickname: z.string().max(200).optional(),
  signature: shownText().max(200, 'at most 200 characters').optional(),
  gender: z.enum(GENDERS).optional(),
  userBirthday: z.union([z.literal(''), z.iso.date()]).optional(),
  label: z
    .array(z.object({ id: z.number().optional(), labelName: shownText().trim().min(1).max(20) }))
    .max(10)
    .optional(),
  userWebsite: z
    .object({
      websiteName: shownText().max(40),
      websiteUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(300)]),
    })
    .optional(),
});
export type UpdateInfoBody = z.input<typeof updateInfoBody>;

// ---- Credentials ----
export const changeEmailCodeBody = z.object({ newEmail: email, clientLanguage });
export const languageBody = z.object({ clientLanguage });
export const updateEmailBody = z.object({
  oldEmail: email,
  newEmail: email,
  password: z.string().min(1).max(1000),
  verificationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
export const updatePasswordBody = z.object({
  oldPassword: z.string().min(1).max(1000),
  newPassword: z.string().min(1).max(1000),
  verificationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
export const forgotPasswordBody = z.object({
  email,
  newPassword: z.string().min(1).max(1000),
  verificationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

// ---- User settings (server copy for theme sync) ----
export const THEME_TYPES = ['light', 'dark', 'system'] as const;
export const THEME_COLORS = [
  'pink',
  'blue',
  'purple',
  'yellow',
  'green',
  'cyan',
  'red',
  'custom',
  'wallpaper',
] as const;
export const userSettingsShape = {
  themeType: z.enum(THEME_TYPES),
  themeColor: z.enum(THEME_COLORS),
  themeColorCustom: z.string().regex(/^[0-9a-fA-F]{6}$/, 'hex colour without #'),
  wallpaper: z.string().max(300),
  coloredSideBar: z.boolean(),
  /** Off: the server records no watch history for this member. */
  historyEnabled: z.boolean(),
};
export const userSettings = z.object(userSettingsShape);
export type UserSettings = z.infer<typeof userSettings>;
/** user/settings/update takes exactly one field. */
export const userSettingsUpdateBody = userSettings
  .partial()
  .strict()
  .refine((value) => Object.keys(value).length === 1, 'exactly one setting per update');
export const userSettingsResponse = z.object({ success: z.literal(true), userSettings });

/** A signed address of the image service for one avatar upload (the answer a cover's preUpload gives too). */
export const preUploadResponse = coverPreUploadResponse;
export type PreUploadResponse = z.infer<typeof preUploadResponse>;
export const deleteEmailAuthenticatorBody = z.object({
  password: z.string().min(1).max(1000),
  verificationCode: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

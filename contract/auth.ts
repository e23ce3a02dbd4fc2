import { Type, type Static } from 'typebox';
import { DateTime, Uuid } from './common.ts';
import { PortalMerchant } from './portal.ts';

/** A signed-in person (API.md "MobileUser"). */
export const MobileUser = Type.Object(
  {
    id: Uuid,
    mobileNumber: Type.String({ description: 'E.164, e.g. +46701234567' }),
    name: Type.Union([Type.String(), Type.Null()]),
    allowMarketing: Type.Boolean(),
    merchants: Type.Array(PortalMerchant, { description: 'The merchants this person works for (the merchant portal); empty for most' }),
    createdAt: DateTime,
  },
  { $id: 'MobileUser', title: 'MobileUser' },
);
export type MobileUser = Static<typeof MobileUser>;

export const VerificationCodeBody = Type.Object(
  {
    mobileNumber: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'A Swedish mobile number in any common form: "070-123 45 67", "+46701234567", "0046701234567"',
    }),
  },
  { additionalProperties: false },
);
export type VerificationCodeBody = Static<typeof VerificationCodeBody>;

export const VerificationCodeAnswer = Type.Object(
  { token: Type.String({ description: 'Identifies this verification; send it back with the code to /auth/login' }) },
  { $id: 'VerificationCodeAnswer', title: 'VerificationCodeAnswer' },
);
export type VerificationCodeAnswer = Static<typeof VerificationCodeAnswer>;

export const LoginBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from /auth/verificationcode' }),
    code: Type.String({ pattern: '^[0-9]{6}$', description: 'The 6-digit code from the SMS' }),
    deviceId: Uuid,
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const TokenPair = Type.Object(
  {
    token: Type.String({ description: 'Access token: a signed JWT (HS256) with sub and exp (seconds); valid 15 minutes' }),
    refreshToken: Type.String({ description: 'Opaque, valid 30 days, single use: every refresh returns a new one' }),
  },
  { $id: 'TokenPair', title: 'TokenPair' },
);
export type TokenPair = Static<typeof TokenPair>;

/** Both, or neither: without them the browser's refresh cookie restores the session (decision 022). */
export const RefreshQuery = Type.Object(
  {
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, description: 'The current (possibly expired) access token' })),
    refreshToken: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The tab's refresh token" })),
  },
  { additionalProperties: false },
);
export type RefreshQuery = Static<typeof RefreshQuery>;

/** The tab's refresh token; left out (or no body at all), the browser's refresh cookie says which session ends. */
export const LogoutBody = Type.Object(
  { refreshToken: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
export type LogoutBody = Static<typeof LogoutBody>;

/** deviceId a browser sends: the app has no device identity of its own. */
export const BROWSER_DEVICE_ID = '00000000-0000-0000-0000-000000000000';

import { Type, type Static } from 'typebox';

/**
 * The signed-in user's own profile (API.md, "Mobile user"). The answer is the MobileUser of
 * contract/auth.ts, the same shape GET /auth/my gives.
 */

/** A name is at most this many characters (Unicode code points) once trimmed. */
export const NAME_MAX_LENGTH = 100;

export const ProfileName = Type.String({
  // The schema only bounds what is read; the rule (checkName) trims and says what is wrong.
  maxLength: 1000,
  description: `Trimmed, then 1 to ${NAME_MAX_LENGTH} characters with no control characters or line breaks`,
  examples: ['Anna Svensson'],
});

export const ProfileBody = Type.Object(
  {
    name: Type.Optional(ProfileName),
    allowMarketing: Type.Optional(Type.Boolean({ description: 'Consent to marketing messages' })),
  },
  { additionalProperties: false },
);
export type ProfileBody = Static<typeof ProfileBody>;

export const AllowMarketingQuery = Type.Object(
  { isAllowed: Type.Boolean({ description: 'true gives consent to marketing, false withdraws it' }) },
  { additionalProperties: false },
);
export type AllowMarketingQuery = Static<typeof AllowMarketingQuery>;

/** Why a name is refused: the server's error code and the client's message key. */
export type NameProblem = 'NAME_EMPTY' | 'NAME_TOO_LONG' | 'NAME_INVALID_CHARACTERS';

// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
const FORBIDDEN = /[\p{Cc}\u2028\u2029]/u;

/**
 * The one rule for a person's name, used by the server (400 with the code) and by the profile form
 * before anything is sent: trimmed, NFC-normalised, 1..NAME_MAX_LENGTH code points, no control
 * characters.
 */
export function checkName(raw: string): { ok: true; name: string } | { ok: false; problem: NameProblem } {
  const name = raw.normalize('NFC').trim();
  if (name === '') return { ok: false, problem: 'NAME_EMPTY' };
  if (FORBIDDEN.test(name)) return { ok: false, problem: 'NAME_INVALID_CHARACTERS' };
  if ([...name].length > NAME_MAX_LENGTH) return { ok: false, problem: 'NAME_TOO_LONG' };
  return { ok: true, name };
}

import { Type, type Static } from 'typebox';

/**
 * The signed-in user's own profile (API.md, "Mobile user"). The answer is the MobileUser of
 * contract/auth.ts, the same shape GET /auth/my gives.
 */

import { NAME_MAX_LENGTH } from './name.ts';

export { NAME_MAX_LENGTH };

export const ProfileName = Type.String({
  // The schema only bounds what is read; the rule (checkName) trims and says what is wrong.
  maxLength: 1000,
  description: `Trimmed, then 1 to ${NAME_MAX_LENGTH} characters: one visible line (no control, bidi or invisible characters), no link, domain name or phone number (contract/name.ts)`,
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

export { NAME_PROBLEMS, checkName, type NameProblem } from './name.ts';

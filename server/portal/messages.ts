import type { Catalogue } from '../i18n/index.ts';

/** Error messages of the merchant portal and of the operator's staff command. */
export const messages = {
  OWNER_ONLY: {
    sv: 'Bara handlarens ägare kan göra det här.',
    en: "Only the merchant's owner can do this.",
  },
  PERIOD_INVALID: {
    sv: 'Perioden är ogiltig: "till" måste vara samma dag som "från" eller senare.',
    en: 'The period is not valid: "to" must be the same day as "from" or later.',
  },
  STAFF_NOT_FOUND: {
    sv: 'Numret är inte kopplat till handlaren.',
    en: 'The number is not linked to the merchant.',
  },
} satisfies Catalogue;

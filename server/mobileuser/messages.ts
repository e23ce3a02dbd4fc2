import type { Catalogue } from '../i18n/index.ts';

/**
 * Error messages of one's own profile and account (server/mobileuser), in Swedish and English. The
 * NAME_* codes are contract/name.ts's problems, for the profile name and the recipient's name alike.
 */
export const messages = {
  NAME_EMPTY: { sv: 'Skriv ditt namn.', en: 'Please enter your name.' },
  NAME_TOO_LONG: { sv: 'Namnet får vara högst {max} tecken.', en: 'The name can be at most {max} characters.' },
  NAME_INVALID_CHARACTERS: {
    sv: 'Namnet får inte innehålla radbrytningar, osynliga tecken eller tecken som vänder på texten.',
    en: 'The name cannot contain line breaks, invisible characters or characters that reverse the text.',
  },
  NAME_HAS_LINK: {
    sv: 'Namnet får inte innehålla länkar eller webbadresser. Skriv bara namnet.',
    en: 'The name cannot contain links or web addresses. Write only the name.',
  },
  NAME_HAS_PHONE_NUMBER: {
    sv: 'Namnet får inte innehålla telefonnummer. Skriv bara namnet.',
    en: 'The name cannot contain phone numbers. Write only the name.',
  },
  ACCOUNT_PAYMENT_PENDING: {
    sv: 'En betalning för en av dina greeties pågår just nu. Vänta tills den är klar (eller avbryt den i Swish) och försök sedan igen.',
    en: 'A payment for one of your greeties is in progress right now. Wait until it is finished (or cancel it in Swish), then try again.',
  },
} satisfies Catalogue;

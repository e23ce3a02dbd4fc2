import type { Message } from '../i18n/index.ts';

/** Error messages of one's own profile (server/mobileuser), in Swedish and English. */
export const messages: Record<string, Message> = {
  NAME_EMPTY: { sv: 'Skriv ditt namn.', en: 'Please enter your name.' },
  NAME_TOO_LONG: { sv: 'Namnet får vara högst {max} tecken.', en: 'The name can be at most {max} characters.' },
  NAME_INVALID_CHARACTERS: {
    sv: 'Namnet får inte innehålla radbrytningar eller andra styrtecken.',
    en: 'The name cannot contain line breaks or other control characters.',
  },
};

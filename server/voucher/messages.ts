import type { Catalogue } from '../i18n/index.ts';

/** Error messages of the voucher calls (server/voucher): what the customer and the till staff read. */
export const messages = {
  VOUCHER_NOT_FOUND: { sv: 'Presentkortet finns inte.', en: 'There is no such voucher.' },
  MERCHANT_CODE_REQUIRED: { sv: 'Skriv in handlarkoden.', en: 'Enter the merchant code.' },
  MERCHANT_CODE_WRONG: {
    sv: 'Handlarkoden stämmer inte. Kontrollera den och försök igen.',
    en: 'The merchant code is not right. Check it and try again.',
  },
  VOUCHER_ALREADY_REDEEMED: { sv: 'Presentkortet är redan inlöst.', en: 'The voucher has already been redeemed.' },
  VOUCHER_EXPIRED: { sv: 'Presentkortet har gått ut och kan inte längre lösas in.', en: 'The voucher has expired and can no longer be redeemed.' },
  VOUCHER_LOCKED: {
    sv: 'För många felaktiga handlarkoder. Presentkortet är låst i {minutes} min.',
    en: 'Too many wrong merchant codes. The voucher is locked for {minutes} min.',
  },
  VOUCHER_NEEDS_MERCHANT_CODE: {
    sv: 'Det här presentkortet löses in i butiken med handlarens kod.',
    en: "This voucher is redeemed in the shop with the merchant's code.",
  },
} satisfies Catalogue;

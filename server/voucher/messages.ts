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
  AMOUNT_NOT_ALLOWED: {
    sv: 'Det här presentkortet har ett fast värde och löses in helt. Ange inget annat belopp.',
    en: 'This voucher has a fixed value and is used whole. Do not enter another amount.',
  },
  VOUCHER_BALANCE_TOO_LOW: {
    sv: 'Beloppet är större än det som finns kvar på presentkortet.',
    en: 'The amount is more than what is left on the voucher.',
  },
  REDEMPTION_NOT_FOUND: { sv: 'Inlösen finns inte.', en: 'There is no such redemption.' },
  UNDO_TOO_LATE: {
    sv: 'En inlösen kan bara ångras inom 10 minuter.',
    en: 'A redemption can only be undone within 10 minutes.',
  },
  ALREADY_UNDONE: { sv: 'Den här inlösen är redan ångrad.', en: 'This redemption has already been undone.' },
  DONATION_NOT_IN_STORE: {
    sv: 'Bara ett presentkort som används i butik kan skänkas.',
    en: 'Only a voucher used in a shop can be donated.',
  },
  DONATION_VOUCHER_USED: {
    sv: 'Presentkortet har redan använts och kan inte skänkas.',
    en: 'The voucher has already been used and cannot be donated.',
  },
  DONATION_VOUCHER_EXPIRED: {
    sv: 'Presentkortet har gått ut och kan inte skänkas.',
    en: 'The voucher has expired and cannot be donated.',
  },
  DONATION_PRODUCT_NOT_CHARITY: {
    sv: 'Värdet kan bara skänkas till en välgörenhetsorganisation.',
    en: 'The value can only be donated to a charity.',
  },
  DONATION_AMOUNT_NOT_ACCEPTED: {
    sv: 'Organisationen kan inte ta emot presentkortets belopp. Välj en annan.',
    en: "The charity cannot take the voucher's amount. Choose another one.",
  },
  VOUCHER_NOT_IN_STORE: {
    sv: 'Bara ett presentkort som används i butik har en QR-kod för kassan.',
    en: 'Only a voucher used in a shop has a QR code for the till.',
  },
  TOKEN_NOT_FOUND: {
    sv: 'QR-koden hör inte till något presentkort hos den här handlaren. Kontrollera koden och försök igen.',
    en: "The QR code does not belong to any of this merchant's vouchers. Check the code and try again.",
  },
  TOKEN_EXPIRED: {
    sv: 'QR-koden har redan använts eller gått ut. Be kunden visa presentkortet igen för en ny kod.',
    en: 'The QR code has been used or has expired. Ask the customer to show the voucher again for a new code.',
  },
  TOKEN_LOCKED: {
    sv: 'För många felaktiga QR-koder. Försök igen om {minutes} min.',
    en: 'Too many wrong QR codes. Try again in {minutes} min.',
  },
} satisfies Catalogue;

import type { Catalogue } from '../i18n/index.ts';

/** Error messages of the merchant catalogue and of the operator's admin command. */
export const messages = {
  MERCHANT_NOT_FOUND: { sv: 'Handlaren finns inte.', en: 'There is no such merchant.' },
  PRODUCT_NOT_FOUND: { sv: 'Produkten finns inte.', en: 'There is no such product.' },
  INVALID_CURSOR: {
    sv: 'Sidmarkören är ogiltig. Börja om från första sidan.',
    en: 'The page cursor is not valid. Start again from the first page.',
  },
  PRODUCT_PRICE_OR_RANGE: {
    sv: 'En produkt har antingen ett fast pris eller ett lägsta och ett högsta belopp, inte båda.',
    en: 'A product has either a fixed price or a smallest and a largest amount, not both.',
  },
  PRODUCT_RANGE_ORDER: {
    sv: 'Lägsta beloppet får inte vara större än det högsta.',
    en: 'The smallest amount may not be larger than the largest.',
  },
  PRODUCT_SOURCE_NOT_OFFERED: {
    sv: 'Handlaren erbjuder inte gåvotypen {source}. Lägg först till den hos handlaren.',
    en: 'The merchant does not offer the gift type {source}. Add it to the merchant first.',
  },
  MERCHANT_SOURCE_IN_USE: {
    sv: 'Gåvotypen {source} används av produkter hos handlaren. Ta bort eller ändra dem först.',
    en: 'The gift type {source} is used by products of this merchant. Remove or change them first.',
  },
} satisfies Catalogue;

import type { Catalogue } from '../i18n/index.ts';

/** Error messages of the payment calls (server/payment); the provider's own are in server/providers/payment/messages.ts. */
export const messages = {
  PAYMENT_NOT_FOUND: { sv: 'Det finns ingen betalning.', en: 'There is no such payment.' },
  GREETIE_NO_GIFTS: {
    sv: 'Greetien har inga gåvor och behöver ingen betalning. Skicka den i stället.',
    en: 'The greetie has no gifts and needs no payment. Send it instead.',
  },
  GREETIE_NOT_PAYABLE: {
    sv: 'Greetien är redan betald eller skickad.',
    en: 'The greetie has already been paid for or sent.',
  },
  GIFT_CODE_POOL_EMPTY: {
    sv: 'En av gåvorna är slut just nu. Välj en annan gåva.',
    en: 'One of the gifts is sold out right now. Choose another gift.',
  },
  CONSENT_REQUIRED: {
    sv: 'Kryssa i rutan om leverans och ångerrätt innan du betalar.',
    en: 'Tick the box about delivery and the right of withdrawal before you pay.',
  },
  PAYMENT_BUSY: {
    sv: 'Betalningen ändrades samtidigt från ett annat ställe. Försök igen.',
    en: 'The payment was changed from somewhere else at the same time. Please try again.',
  },
  PAYMENT_STREAMS_LIMIT: {
    sv: 'Betalningen följs redan i för många flikar. Stäng någon av dem och försök igen.',
    en: 'The payment is already being followed in too many tabs. Close one of them and try again.',
  },
  PAYMENT_NOT_PENDING: {
    sv: 'Betalningen väntar inte längre på svar.',
    en: 'The payment is no longer waiting for an answer.',
  },
  PAYMENT_PENDING: {
    sv: 'Betalningen pågår fortfarande. Försök igen om en stund.',
    en: 'The payment is still in progress. Please try again in a moment.',
  },
  PAYMENT_SANDBOX_ONLY: {
    sv: 'Betalningen görs inte i sandlådan och kan inte avgöras här.',
    en: 'The payment is not made in the sandbox and cannot be settled here.',
  },
  PRODUCT_NOT_CODE: {
    sv: 'Produkten är inte en kod-produkt (source Code), så den har ingen kodpool.',
    en: 'The product is not a Code product, so it has no pool of codes.',
  },
  CODES_INVALID: {
    sv: 'Filen innehåller inga koder, eller en kod är längre än 200 tecken.',
    en: 'The file holds no codes, or a code is longer than 200 characters.',
  },
  GREETIE_NOT_CANCELLABLE: {
    sv: 'Bara en skickad greetie kan avbrytas. Ett utkast kan du ta bort i stället.',
    en: 'Only a sent greetie can be cancelled. A draft can be deleted instead.',
  },
  REFUND_NOT_FOUND: { sv: 'Det finns ingen sådan återbetalning.', en: 'There is no such refund.' },
  REFUND_NOT_PENDING: {
    sv: 'Återbetalningen väntar inte längre på svar.',
    en: 'The refund is no longer waiting for an answer.',
  },
} satisfies Catalogue;

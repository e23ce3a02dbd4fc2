import type { Catalogue } from '../../i18n/index.ts';

/**
 * Messages for the payment provider's answers: one per Swish error code (`PAYMENT_{code}`, see
 * paymentErrorMessageCode), written for the person paying, plus the provider being unreachable.
 * Codes that only our own mistakes can cause still get a message that tells the payer what to do.
 */
export const messages = {
  PAYMENT_FAILED: { sv: 'Betalningen gick inte igenom. Försök igen.', en: 'The payment did not go through. Please try again.' },
  PAYMENT_UNAVAILABLE: {
    sv: 'Swish svarar inte just nu. Försök igen om en stund.',
    en: 'Swish is not answering right now. Please try again in a moment.',
  },
  PAYMENT_REJECTED: {
    sv: 'Vi kan inte ta emot Swish-betalningar just nu. Felet är vårt – försök igen senare.',
    en: 'We cannot take Swish payments right now. The fault is ours – please try again later.',
  },
  PAYMENT_FF08: { sv: 'Betalningsreferensen är ogiltig. Försök igen.', en: 'The payment reference is invalid. Please try again.' },
  PAYMENT_RP01: { sv: 'Mottagarens Swish-nummer saknas. Felet är vårt – försök igen senare.', en: "The payee's Swish number is missing. The fault is ours – please try again later." },
  PAYMENT_RP02: { sv: 'Meddelandet till Swish har tecken som inte är tillåtna.', en: 'The message to Swish has characters that are not allowed.' },
  PAYMENT_RP03: {
    sv: 'Betalningen kan inte startas: vår adress för svar från Swish är fel. Felet är vårt.',
    en: 'The payment cannot start: our address for answers from Swish is wrong. The fault is ours.',
  },
  PAYMENT_RP04: { sv: 'Betalningen kunde inte hittas hos Swish.', en: 'Swish could not find the payment.' },
  PAYMENT_RP06: {
    sv: 'Det finns redan en betalning som väntar i din Swish-app. Avsluta den och försök igen.',
    en: 'A payment is already waiting in your Swish app. Finish or cancel it and try again.',
  },
  PAYMENT_RP08: { sv: 'Betalningen har redan avbrutits.', en: 'The payment has already been cancelled.' },
  PAYMENT_RP09: { sv: 'Betalningen finns redan. Ladda om sidan.', en: 'The payment already exists. Reload the page.' },
  PAYMENT_ACMT01: { sv: 'Numret är inte kopplat till Swish.', en: 'The number is not connected to Swish.' },
  PAYMENT_ACMT03: {
    sv: 'Numret har inte Swish. Kontrollera numret eller betala med en annan telefon.',
    en: 'That number does not have Swish. Check the number or pay with another phone.',
  },
  PAYMENT_ACMT07: { sv: 'Mottagaren kan inte ta emot Swish just nu. Felet är vårt.', en: 'The payee cannot receive Swish right now. The fault is ours.' },
  PAYMENT_AM02: { sv: 'Beloppet är för stort för Swish.', en: 'The amount is too large for Swish.' },
  PAYMENT_AM03: { sv: 'Swish tar bara emot betalningar i svenska kronor.', en: 'Swish only takes payments in Swedish kronor.' },
  PAYMENT_AM06: { sv: 'Beloppet är för litet för Swish.', en: 'The amount is too small for Swish.' },
  PAYMENT_AM21: {
    sv: 'Beloppet är över din Swish-gräns. Höj gränsen i din bank eller välj färre presenter.',
    en: 'The amount is over your Swish limit. Raise it with your bank or choose fewer gifts.',
  },
  PAYMENT_BE18: { sv: 'Swish-numret är ogiltigt. Skriv ett svenskt mobilnummer.', en: 'The Swish number is invalid. Enter a Swedish mobile number.' },
  PAYMENT_PA02: { sv: 'Beloppet är ogiltigt.', en: 'The amount is invalid.' },
  PAYMENT_RF07: { sv: 'Betalningen nekades.', en: 'The payment was declined.' },
  PAYMENT_BANKIDCL: { sv: 'Betalningen avbröts i BankID.', en: 'The payment was cancelled in BankID.' },
  PAYMENT_BANKIDONGOING: {
    sv: 'BankID används redan. Avsluta det andra BankID-ärendet och försök igen.',
    en: 'BankID is already in use. Finish the other BankID request and try again.',
  },
  PAYMENT_BANKIDUNKN: { sv: 'BankID kunde inte godkänna betalningen. Försök igen.', en: 'BankID could not approve the payment. Please try again.' },
  PAYMENT_TM01: {
    sv: 'Betalningen besvarades inte i tid i Swish. Försök igen.',
    en: 'The payment was not answered in time in Swish. Please try again.',
  },
  PAYMENT_DS24: {
    sv: 'Swish väntar fortfarande på svar från banken. Vänta en stund innan du försöker igen.',
    en: 'Swish is still waiting for the bank. Wait a moment before trying again.',
  },
  PAYMENT_VR01: { sv: 'Du uppfyller inte åldersgränsen för köpet.', en: 'You do not meet the age limit for this purchase.' },
  PAYMENT_RF02: {
    sv: 'Swish hittar inte betalningen som ska återbetalas (eller så är den äldre än 13 månader).',
    en: 'Swish cannot find the payment to refund (or it is older than 13 months).',
  },
  PAYMENT_RF03: { sv: 'Återbetalningen måste göras från samma Swish-nummer som tog emot betalningen. Felet är vårt.', en: 'The refund must come from the Swish number that was paid. The fault is ours.' },
  PAYMENT_RF08: { sv: 'Beloppet är större än det som finns kvar att återbetala.', en: 'The amount is more than what is left to refund.' },
  PAYMENT_AM04: { sv: 'Det finns inte tillräckligt med pengar för återbetalningen just nu. Vi försöker igen.', en: 'There is not enough money for the refund right now. We will try again.' },
  PAYMENT_VR02: { sv: 'Swish-numret hör inte till rätt person för köpet.', en: 'The Swish number does not belong to the right person for this purchase.' },
} satisfies Catalogue;

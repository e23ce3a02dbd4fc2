import type { Catalogue } from '../i18n/index.ts';

/**
 * Error messages of greeties (server/greetie). A bad mobile number reuses sign-in's
 * INVALID_MOBILE_NUMBER and a bad cursor the catalogue's INVALID_CURSOR: the same words for the
 * same problem.
 */
export const messages = {
  GREETIE_NOT_FOUND: { sv: 'Greetien finns inte.', en: 'There is no such greetie.' },
  GREETIE_NOT_DRAFT: {
    sv: 'Greetien är redan skickad och kan inte längre ändras.',
    en: 'The greetie has already been sent and can no longer be changed.',
  },
  GREETIE_NOT_DELETABLE: {
    sv: 'Greetien är redan betald eller skickad och kan inte tas bort.',
    en: 'The greetie has already been paid for or sent and cannot be deleted.',
  },
  GREETIE_HAS_GIFTS: {
    sv: 'Greetien har gåvor. Gå till betalningen för att skicka den.',
    en: 'The greetie has gifts. Go to payment to send it.',
  },
  GREETIE_NO_RECIPIENT: {
    sv: 'Ange mottagarens mobilnummer innan du skickar.',
    en: "Enter the recipient's mobile number before sending.",
  },
  SENDER_NAME_REQUIRED: {
    sv: 'Skriv ditt namn innan du skickar, så att mottagaren vet vem greetien är från.',
    en: 'Enter your name before sending, so the recipient knows who the greetie is from.',
  },
  GIFT_PRODUCT_UNAVAILABLE: {
    sv: 'En av gåvorna går inte att köpa just nu. Välj en annan.',
    en: 'One of the gifts cannot be bought right now. Choose another.',
  },
  GIFT_AMOUNT_REQUIRED: {
    sv: 'Välj ett belopp för presentkortet, mellan {min} och {max} kr.',
    en: 'Choose an amount for the gift card, between SEK {min} and {max}.',
  },
  GIFT_AMOUNT_OUT_OF_RANGE: {
    sv: 'Beloppet ska vara mellan {min} och {max} kr.',
    en: 'The amount must be between SEK {min} and {max}.',
  },
  GIFT_AMOUNT_FIXED: {
    sv: 'Den här gåvan har ett fast pris på {price} kr.',
    en: 'This gift has a fixed price of SEK {price}.',
  },
  GIFT_TOTAL_TOO_LARGE: {
    sv: 'Gåvorna kostar tillsammans för mycket. Ta bort någon.',
    en: 'The gifts cost too much together. Remove one.',
  },
  DELIVER_AT_PAST: {
    sv: 'Leveranstiden har redan passerat. Välj en tid framåt.',
    en: 'The delivery time has already passed. Choose a time ahead.',
  },
  DELIVER_AT_TOO_FAR: {
    sv: 'Leveranstiden får vara högst ett år framåt.',
    en: 'The delivery time may be at most one year ahead.',
  },
  CONTENT_EMOJI_INVALID: {
    sv: 'En av emojierna känns inte igen.',
    en: 'One of the emoji is not recognised.',
  },
  CONTENT_PICTURE_UNKNOWN: {
    sv: 'En av bilderna hör inte till den här greetien. Ladda upp den igen.',
    en: 'One of the pictures does not belong to this greetie. Upload it again.',
  },
  TEXT_INVALID_CHARACTERS: {
    sv: 'Texten innehåller tecken som inte går att spara.',
    en: 'The text contains characters that cannot be saved.',
  },
  GREETIE_ALREADY_OPENED: {
    sv: 'Mottagaren har redan öppnat greetien eller använt en gåva, så den kan inte längre ändras, skickas igen eller avbrytas.',
    en: 'The recipient has already opened the greetie or used a gift, so it can no longer be changed, sent again or cancelled.',
  },
  RECIPIENT_CHANGE_LIMIT: {
    sv: 'Mottagaren kan rättas högst {max} gånger, och det är redan gjort.',
    en: 'The recipient can be corrected at most {max} times, and that has already been done.',
  },
  RECIPIENT_CHANGE_NOT_ALLOWED: {
    sv: 'Mottagaren kan bara rättas på en greetie som är skickad eller levererad.',
    en: 'The recipient can only be corrected on a greetie that has been sent or delivered.',
  },
  RECIPIENT_UNCHANGED: {
    sv: 'Greetien går redan till det numret. Ange det rätta numret.',
    en: 'The greetie already goes to that number. Enter the correct number.',
  },
  RESEND_NOT_ALLOWED: {
    sv: 'Länken kan skickas igen först när greetien är levererad.',
    en: 'The link can only be sent again once the greetie has been delivered.',
  },
  RESEND_LIMIT: {
    sv: 'Länken kan skickas igen en gång per dygn. Du kan skicka den igen om {waitSv}.',
    en: 'The link can be sent again once a day. You can send it again in {waitEn}.',
  },
  THANKS_ALREADY_SENT: {
    sv: 'Du har redan tackat för den här greetien.',
    en: 'You have already said thank you for this greetie.',
  },
  THANKS_MESSAGE_EMPTY: {
    sv: 'Skriv något i ditt tack.',
    en: 'Write something in your thank-you.',
  },
  THANKS_EMOJI_INVALID: {
    sv: 'Emojin känns inte igen.',
    en: 'The emoji is not recognised.',
  },
} satisfies Catalogue;

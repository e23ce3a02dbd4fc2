import type { Lang, Catalogue } from '../i18n/index.ts';

/** Error messages of notifications and push (server/notification), in Swedish and English. */
export const messages = {
  EXPO_TOKEN_INVALID: {
    sv: 'Det där är ingen Expo-push-token (ExponentPushToken[…]).',
    en: 'That is not an Expo push token (ExponentPushToken[…]).',
  },
  DEVICE_ID_INVALID: { sv: 'Enhets-id saknas eller är för långt.', en: 'The device id is missing or too long.' },
  WEBPUSH_SUBSCRIPTION_INVALID: {
    sv: 'Prenumerationen för webbnotiser är ogiltig (endpoint måste vara en https-adress).',
    en: 'The web push subscription is not valid (its endpoint must be an https address).',
  },
  WEBPUSH_ENDPOINT_REFUSED: {
    sv: 'Prenumerationen för webbnotiser pekar inte på en webbläsares push-tjänst som Greetie skickar till.',
    en: "The web push subscription does not point to a browser's push service that Greetie sends to.",
  },
  WEBPUSH_OFF: { sv: 'Webbnotiser är inte påslagna på den här servern.', en: 'Web push is not turned on on this server.' },
} satisfies Catalogue;

/** What a notification's text may name (kept in the row's params). */
export interface NotificationParams {
  senderName?: string | null;
  recipientName?: string | null;
  merchantName?: string | null;
  productName?: string | null;
  days?: number;
  /** A thank-you's text and emoji (type `thanks`). */
  message?: string | null;
  emoji?: string | null;
  /** Öre (a refund). */
  amount?: number;
}

/** A thank-you as a push shows it: its emoji, then its text cut to 120 characters. */
function thanksBody(p: NotificationParams): string {
  const text = (p.message ?? '').length > 120 ? `${[...(p.message ?? '')].slice(0, 119).join('')}…` : (p.message ?? '');
  return p.emoji ? `${p.emoji} ${text}` : text;
}

/** Kronor as people read them: 349 or 349,50. */
function kronor(ore: number | undefined): string {
  if (ore === undefined) return '';
  return ore % 100 === 0 ? String(ore / 100) : (ore / 100).toFixed(2).replace('.', ',');
}

type Texts = (p: NotificationParams) => { title: string; body: string };

const someone = { sv: 'Någon', en: 'Someone' };
const gift = { sv: 'ditt presentkort', en: 'your gift card' };

/**
 * Titles and bodies per kind and language. A push is written in the language its device or
 * browser registered with (migration 013); the list follows the request's Accept-Language
 * (Swedish by default).
 */
const texts: Record<Lang, Record<string, Texts>> = {
  sv: {
    greetieReceived: (p) => ({ title: 'Du har fått en greetie!', body: `${p.senderName || someone.sv} har skickat en greetie till dig.` }),
    greetieDelivered: (p) => ({ title: 'Din greetie är levererad', body: `Din greetie till ${p.recipientName || 'mottagaren'} har skickats.` }),
    greetieViewed: (p) => ({ title: 'Din greetie har öppnats', body: `${p.recipientName || 'Mottagaren'} har öppnat din greetie.` }),
    paymentSucceeded: (p) => ({ title: 'Betalningen är klar', body: `Tack! Din greetie till ${p.recipientName || 'mottagaren'} är betald och skickas som planerat.` }),
    paymentFailed: () => ({ title: 'Betalningen gick inte igenom', body: 'Din greetie är inte betald. Öppna den och försök igen.' }),
    voucherRedeemed: (p) => ({ title: 'Presentkortet är inlöst', body: `${p.productName || gift.sv}${p.merchantName ? ` hos ${p.merchantName}` : ''} är nu inlöst.` }),
    voucherExpiring: (p) => ({
      title: p.days === 7 ? 'Presentkortet går ut om en vecka' : `Presentkortet går ut om ${p.days ?? 30} dagar`,
      body: `Glöm inte att använda ${p.productName || gift.sv}${p.merchantName ? ` hos ${p.merchantName}` : ''}.`,
    }),
    unopened: (p) => ({
      title: 'Din greetie är inte öppnad än',
      body: `${p.recipientName || 'Mottagaren'} har inte öppnat din greetie. Du kan rätta numret, skicka länken igen eller avbryta den.`,
    }),
    thanks: (p) => ({ title: `${p.recipientName || 'Mottagaren'} tackar för din greetie`, body: thanksBody(p) }),
    refunded: (p) => ({
      title: 'Du får tillbaka pengarna',
      body: `${p.recipientName || 'Mottagaren'} öppnade aldrig din greetie, så vi har avbrutit den. ${p.amount ? `${kronor(p.amount)} kr` : 'Pengarna'} betalas tillbaka till ditt Swish-konto.`,
    }),
  },
  en: {
    greetieReceived: (p) => ({ title: 'You have received a greetie!', body: `${p.senderName || someone.en} has sent you a greetie.` }),
    greetieDelivered: (p) => ({ title: 'Your greetie has been delivered', body: `Your greetie to ${p.recipientName || 'the recipient'} has been sent.` }),
    greetieViewed: (p) => ({ title: 'Your greetie has been opened', body: `${p.recipientName || 'The recipient'} has opened your greetie.` }),
    paymentSucceeded: (p) => ({ title: 'Payment complete', body: `Thank you! Your greetie to ${p.recipientName || 'the recipient'} is paid and will be sent as planned.` }),
    paymentFailed: () => ({ title: 'The payment did not go through', body: 'Your greetie is not paid. Open it and try again.' }),
    voucherRedeemed: (p) => ({ title: 'Gift card redeemed', body: `${p.productName || gift.en}${p.merchantName ? ` at ${p.merchantName}` : ''} has been redeemed.` }),
    voucherExpiring: (p) => ({
      title: p.days === 7 ? 'Your gift card expires in a week' : `Your gift card expires in ${p.days ?? 30} days`,
      body: `Remember to use ${p.productName || gift.en}${p.merchantName ? ` at ${p.merchantName}` : ''}.`,
    }),
    unopened: (p) => ({
      title: 'Your greetie has not been opened yet',
      body: `${p.recipientName || 'The recipient'} has not opened your greetie. You can correct the number, send the link again or cancel it.`,
    }),
    thanks: (p) => ({ title: `${p.recipientName || 'The recipient'} thanks you for your greetie`, body: thanksBody(p) }),
    refunded: (p) => ({
      title: 'You are getting your money back',
      body: `${p.recipientName || 'The recipient'} never opened your greetie, so we have cancelled it. ${p.amount ? `${kronor(p.amount)} kr is` : 'The money is'} being paid back to your Swish account.`,
    }),
  },
};

export function notificationText(type: string, params: NotificationParams, lang: Lang = 'sv'): { title: string; body: string } {
  const t = texts[lang][type];
  return t ? t(params) : { title: 'Greetie', body: '' };
}

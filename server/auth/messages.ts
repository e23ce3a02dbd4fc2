import type { Catalogue } from '../i18n/index.ts';

/** Error messages of sign-in (server/auth) and SMS sending, in Swedish and English. */
export const messages = {
  INVALID_MOBILE_NUMBER: {
    sv: 'Det där ser inte ut som ett svenskt mobilnummer. Skriv det till exempel som 070-123 45 67.',
    en: 'That does not look like a Swedish mobile number. Write it like 070-123 45 67.',
  },
  CODE_RATE_LIMITED_NUMBER: {
    sv: 'Vi har redan skickat flera koder till det här numret. Vänta {retryAfter} sekunder innan du ber om en ny.',
    en: 'We have already sent several codes to this number. Wait {retryAfter} seconds before asking for a new one.',
  },
  CODE_RATE_LIMITED_IP: {
    sv: 'Många ber om koder härifrån just nu. Vänta {retryAfter} sekunder och försök igen.',
    en: 'Many people are asking for codes from here right now. Wait {retryAfter} seconds and try again.',
  },
  LOGIN_RATE_LIMITED: {
    sv: 'För många felaktiga koder för det här numret. Vänta {retryAfter} sekunder och försök igen.',
    en: 'Too many wrong codes for this number. Wait {retryAfter} seconds and try again.',
  },
  WRONG_CODE: {
    sv: 'Koden stämmer inte. Du har {triesLeft} försök kvar.',
    en: 'That code is not right. You have {triesLeft} tries left.',
  },
  CODE_VOIDED: {
    sv: 'Koden stämde inte, och efter för många försök gäller den inte längre. Be om en ny kod.',
    en: 'That code was not right, and after too many tries it is no longer valid. Ask for a new code.',
  },
  VERIFICATION_INVALID: {
    sv: 'Koden har gått ut eller redan använts. Be om en ny kod.',
    en: 'The code has expired or has already been used. Ask for a new code.',
  },
  INVALID_TOKEN: {
    sv: 'Din inloggning gäller inte längre. Logga in igen.',
    en: 'Your sign-in is no longer valid. Please sign in again.',
  },
  REFRESH_TOKEN_INVALID: {
    sv: 'Din inloggning har gått ut. Logga in igen.',
    en: 'Your sign-in has expired. Please sign in again.',
  },
  REFRESH_TOKEN_REUSED: {
    sv: 'Din inloggning har använts på ett annat ställe, så vi har loggat ut den för säkerhets skull. Logga in igen.',
    en: 'Your sign-in was used somewhere else, so we signed it out to be safe. Please sign in again.',
  },
  REFRESH_TOKEN_MISSING: {
    sv: 'Du är inte inloggad i den här webbläsaren. Logga in för att fortsätta.',
    en: 'You are not signed in in this browser. Sign in to continue.',
  },
  CROSS_SITE_REQUEST: {
    sv: 'Den här förfrågan kom från en annan webbplats, så vi tog inte emot den. Öppna Greetie direkt och försök igen.',
    en: 'This request came from another website, so we did not accept it. Open Greetie directly and try again.',
  },
  SMS_UNAVAILABLE: {
    sv: 'Vi kan inte skicka sms just nu. Försök igen om en liten stund.',
    en: 'We cannot send text messages right now. Please try again in a little while.',
  },
  SMS_REJECTED: {
    sv: 'Sms-tjänsten tog inte emot meddelandet. Försök igen senare – felet ligger hos oss, inte hos dig.',
    en: 'The text message service did not accept the message. Please try later – the fault is ours, not yours.',
  },
} satisfies Catalogue;

import type { Catalogue } from './index.ts';

/** Messages for errors that any route can give. */
export const messages = {
  BAD_REQUEST: { sv: 'Begäran kunde inte tolkas.', en: 'The request could not be understood.' },
  VALIDATION_FAILED: { sv: 'Några uppgifter saknas eller är felaktiga.', en: 'Some fields are missing or invalid.' },
  INVALID_JSON: { sv: 'Innehållet är inte giltig JSON.', en: 'The body is not valid JSON.' },
  EMPTY_BODY: { sv: 'Innehållet saknas.', en: 'The body is missing.' },
  UNSUPPORTED_MEDIA_TYPE: {
    sv: 'Innehållstypen stöds inte. Skicka application/json.',
    en: 'Unsupported content type. Send application/json.',
  },
  PAYLOAD_TOO_LARGE: { sv: 'Innehållet är för stort.', en: 'The body is too large.' },
  UNAUTHORIZED: { sv: 'Du behöver logga in.', en: 'You need to sign in.' },
  FORBIDDEN: { sv: 'Du har inte behörighet till det här.', en: 'You are not allowed to do this.' },
  NOT_FOUND: { sv: 'Det du letar efter finns inte.', en: 'What you are looking for does not exist.' },
  ROUTE_NOT_FOUND: { sv: 'Adressen finns inte i API:et.', en: 'There is no such address in the API.' },
  METHOD_NOT_ALLOWED: { sv: 'Metoden stöds inte här.', en: 'That method is not supported here.' },
  CONFLICT: { sv: 'Det går inte i det här läget.', en: 'That is not possible right now.' },
  GONE: { sv: 'Det här är inte längre giltigt.', en: 'This is no longer valid.' },
  RATE_LIMITED: {
    sv: 'För många försök. Vänta {retryAfter} sekunder och försök igen.',
    en: 'Too many attempts. Wait {retryAfter} seconds and try again.',
  },
  INTERNAL_ERROR: {
    sv: 'Något gick fel hos oss. Försök igen om en stund.',
    en: 'Something went wrong on our side. Please try again shortly.',
  },
  BAD_GATEWAY: {
    sv: 'En tjänst vi är beroende av svarade inte som väntat. Försök igen.',
    en: 'A service we depend on did not answer as expected. Please try again.',
  },
  SERVICE_UNAVAILABLE: {
    sv: 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.',
    en: 'The service is unavailable right now. Please try again shortly.',
  },
  DB_UNAVAILABLE: { sv: 'Databasen svarar inte.', en: 'The database is not answering.' },
} satisfies Catalogue;

import type { Catalogue } from '../i18n/index.ts';

/** Idempotency-Key answers (server/idempotency, decision 084). */
export const messages = {
  IDEMPOTENCY_KEY_REUSED: {
    sv: 'Den här Idempotency-Key har redan använts för en annan begäran. Använd en ny nyckel för en ny begäran.',
    en: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  },
  IDEMPOTENCY_KEY_IN_PROGRESS: {
    sv: 'En begäran med samma Idempotency-Key pågår fortfarande. Försök igen om en stund.',
    en: 'A request with the same Idempotency-Key is still in progress. Try again in a moment.',
  },
} satisfies Catalogue;
